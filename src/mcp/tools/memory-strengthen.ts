import { z } from 'zod';
import { MemoryStrengthenDocument } from '../../generated/graphql.js';
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

export const memoryStrengthen = defineTool({
  name: 'memory_strengthen',
  title: 'Strengthen a relation (the fact was confirmed)',
  description: [
    'Raise the weight of an existing edge, named by edge_id or by source_id, target_id and edge_type, clamped at 1, after the relation proved right (the user confirmed it, or it led to a useful answer).',
    "amount defaults to the server's CONSCIOUS step (0.01 unless configured). A pruned edge is revived once its weight is above 0.05.",
    "The change persists and is recorded with reason in the edge's weight history; it returns previous_weight, new_weight, pruned and event_id (memory_revert undoes it).",
    'NOT_FOUND when the edge does not exist: it never creates edges (use memory_link). To put a weight at an exact value use memory_set_weight.',
    'To credit a recalled memory and the edges that led to it in one call, use memory_feedback with signal used.',
  ].join(' '),
  input: z
    .object({ ...edgeSelectorInput, amount: amountInput('the CONSCIOUS step, 0.01'), reason: reasonInput })
    .superRefine(requireOneEdgeSelector),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryStrengthenDocument,
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
    const change = toWeightChange(data.strengthen);
    return { structured: change, text: weightChangeText('Strengthened', data.strengthen) };
  },
});
