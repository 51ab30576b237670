import { z } from 'zod';
import { MemoryWeakenDocument } from '../../generated/graphql.js';
import {
  amountInput,
  defined,
  edgeTypeInput,
  memoryRefInput,
  reasonInput,
  toWeightChange,
  weightChangeOutput,
  weightChangeText,
} from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryWeaken = defineTool({
  name: 'memory_weaken',
  title: 'Weaken a relation (the user corrected a recalled fact)',
  description: [
    'Lower the weight of the existing edge source -[edge_type]-> target by amount (default 0.3), clamped at 0, after the user corrected something you recalled through that relation.',
    'At or below 0.05 the edge is pruned: hidden from memory_related, memory_path and memory_traverse but kept, and memory_strengthen revives it.',
    "The change persists and is recorded with reason in the edge's weight history. Returns previous_weight, new_weight and pruned.",
    'NOT_FOUND when the edge does not exist: it never creates edges.',
    'Prefer it to memory_unlink for corrections (reversible, keeps the trail). When a newer memory replaces an older one, link them with SUPERSEDES (memory_link);',
    'when the memory itself (not the relation) was off, use memory_feedback.',
  ].join(' '),
  input: z.object({
    source_id: memoryRefInput('The memory the edge starts at'),
    target_id: memoryRefInput('The memory the edge points to'),
    edge_type: edgeTypeInput,
    amount: amountInput('0.3'),
    reason: reasonInput,
  }),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryWeakenDocument,
  argumentNames: { from: 'source_id', to: 'target_id', type: 'edge_type', amount: 'amount', reason: 'reason' },
  variables: (input) =>
    defined({
      from: input.source_id,
      to: input.target_id,
      type: input.edge_type,
      amount: input.amount,
      reason: input.reason,
    }),
  present: (data) => {
    const change = toWeightChange(data.weaken);
    return { structured: change, text: weightChangeText('Weakened', change) };
  },
});
