import { z } from 'zod';
import { MemorySetWeightDocument } from '../../generated/graphql.js';
import { defined, reasonInput, toWeightChange, weightChangeOutput, weightChangeText } from '../shapes.js';
import { defineTool } from '../tool.js';

export const memorySetWeight = defineTool({
  name: 'memory_set_weight',
  title: 'Set an edge weight exactly',
  description: [
    'Set the weight of the edge edge_id to an exact value 0-1, as a MANUAL change recorded with reason in its weight history; returns previous_weight, new_weight, pruned and event_id.',
    'At or below 0.05 the edge is pruned (hidden from walks), above it is visible again, so this also revives a pruned edge in one call.',
    'Use it when the user states how strong a relation is, or to restore a weight exactly; memory_weaken / memory_strengthen move a weight by a step, memory_revert undoes one change.',
    'NOT_FOUND when the edge does not exist (it never creates edges: use memory_link). Setting the same value again changes nothing but adds an event.',
  ].join(' '),
  input: z.object({
    edge_id: z.string().describe('The edge (ids come from memory_related, memory_get, memory_link ...).'),
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
