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
  title: 'Weaken a relation after a correction',
  description:
    'The user corrected a recalled relation: lower the edge by amount, clamped at 0; at or below 0.05 it is pruned (hidden from walks, kept). Recorded with reason; undo with memory_revert and event_id, or memory_set_weight. Prefer it to memory_unlink.',
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
