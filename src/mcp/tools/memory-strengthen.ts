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
  title: 'Strengthen a confirmed relation',
  description:
    'The user confirmed a recalled relation: raise the edge by amount (default 0.01), clamped at 1; above 0.05 a pruned edge is visible again. Recorded with reason; undo with memory_revert and event_id. memory_set_weight sets an exact value.',
  input: z
    .object({ ...edgeSelectorInput, amount: amountInput('0.01'), reason: reasonInput })
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
