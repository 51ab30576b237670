import { z } from 'zod';
import { MemorySetWeightDocument } from '../../generated/graphql.js';
import { defined, reasonInput, toWeightChange, weightChangeOutput, weightChangeText } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memorySetWeight = defineTool({
  name: 'memory_set_weight',
  title: 'Set an edge weight exactly',
  description:
    "Set an edge's weight exactly (MANUAL, with reason); above 0.05 a pruned edge is visible again. Use it when the user states a strength; memory_weaken / memory_strengthen move by a step, memory_revert undoes a change.",
  input: z.object({
    edge_id: z.string().describe('The edge.'),
    weight: z.number().meta({ minimum: 0, maximum: 1 }).describe('The new weight, 0-1.'),
    reason: reasonInput,
  }),
  output: weightChangeOutput,
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemorySetWeightDocument,
  aliases: { id: 'edge_id' },
  argumentNames: { id: 'edge_id', weight: 'weight', reason: 'reason' },
  variables: (input) => defined({ id: input.edge_id, weight: input.weight, reason: input.reason }),
  present: (data) => {
    const change = toWeightChange(data.setEdgeWeight);
    return { structured: change, text: weightChangeText('Set', data.setEdgeWeight) };
  },
});
