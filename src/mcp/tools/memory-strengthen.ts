import { z } from 'zod';
import { MemoryStrengthenDocument } from '../../generated/graphql.js';
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

export const memoryStrengthen = defineTool({
  name: 'memory_strengthen',
  title: 'Strengthen a relation (the fact was confirmed)',
  description: [
    'Raise the weight of the existing edge source -[edge_type]-> target, clamped at 1, after the relation proved right (the user confirmed it, or it led to a useful answer).',
    "amount defaults to the server's CONSCIOUS step (0.01 unless configured). Revives a pruned edge once its weight is above 0.05.",
    "The change persists and is recorded with reason in the edge's weight history. Returns previous_weight, new_weight and pruned.",
    'NOT_FOUND when the edge does not exist: it never creates edges (use memory_link).',
    'To credit a recalled memory and the edges that led to it in one call, use memory_feedback with signal used.',
  ].join(' '),
  input: z.object({
    source_id: memoryRefInput('The memory the edge starts at'),
    target_id: memoryRefInput('The memory the edge points to'),
    edge_type: edgeTypeInput,
    amount: amountInput('the CONSCIOUS step, 0.01'),
    reason: reasonInput,
  }),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryStrengthenDocument,
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
    const change = toWeightChange(data.strengthen);
    return { structured: change, text: weightChangeText('Strengthened', change) };
  },
});
