import { z } from 'zod';
import { MemoryWeakenDocument } from '../../generated/graphql.js';
import {
  amountInput,
  defined,
  EDGE_ALIASES,
  edgeSelectorInput,
  reasonInput,
  requireOneEdgeSelector,
  toWeightChange,
  weightChangeOutput,
  weightChangeText,
} from '../shapes.js';
import { defineTool } from '../tool.js';

export const memoryWeaken = defineTool({
  name: 'memory_weaken',
  title: 'Weaken a relation (the user corrected a recalled fact)',
  description: [
    'Lower the weight of an existing edge, named by edge_id or by source_id, target_id and edge_type, by amount (default 0.3), clamped at 0, after the user corrected something you recalled through that relation.',
    'At or below 0.05 the edge is pruned: hidden from memory_related, memory_path and memory_traverse but kept.',
    "The change persists and is recorded with reason in the edge's weight history; it returns previous_weight, new_weight, pruned and event_id.",
    'To undo it pass event_id to memory_revert (or set a weight with memory_set_weight); memory_strengthen revives a pruned edge only once the weight is back above 0.05, which takes several default 0.01 steps, so give it an amount.',
    'NOT_FOUND when the edge does not exist: it never creates edges.',
    'Prefer it to memory_unlink for corrections (reversible, keeps the trail). When a newer memory replaces an older one, link them with SUPERSEDES (memory_link);',
    'when the memory itself (not the relation) was off, use memory_feedback.',
  ].join(' '),
  input: z
    .object({ ...edgeSelectorInput, amount: amountInput('0.3'), reason: reasonInput })
    .superRefine(requireOneEdgeSelector),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryWeakenDocument,
  aliases: EDGE_ALIASES,
  argumentNames: {
    edgeId: 'edge_id',
    from: 'source_id',
    to: 'target_id',
    type: 'edge_type',
    amount: 'amount',
    reason: 'reason',
  },
  variables: (input) =>
    defined({
      edgeId: input.edge_id,
      from: input.source_id,
      to: input.target_id,
      type: input.edge_type,
      amount: input.amount,
      reason: input.reason,
    }),
  present: (data) => {
    const change = toWeightChange(data.weaken);
    return { structured: change, text: weightChangeText('Weakened', data.weaken) };
  },
});
