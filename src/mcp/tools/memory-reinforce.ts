import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryReinforceDocument, type WeightChangeFieldsFragment } from '../../generated/graphql.js';
import { defined, handle, reasonInput, toWeightChange, weightChangeOutput } from '../shapes.js';
import { defineTool } from '../tool.js';

/** Weights keep 12 decimals; a few significant digits are enough to read the AGENT step. */
const small = (value: number): string => String(Number(value.toPrecision(3)));
const weight = (value: number): string => String(Number(value.toFixed(6)));

function changeLine(change: WeightChangeFieldsFragment): string {
  const edge = change.edge;
  const what = edge ? `${handle(edge.from)} -[${edge.type}]-> ${handle(edge.to)} (edge id ${edge.id})` : 'memory';
  return `- ${what}: ${weight(change.previousWeight)} -> ${weight(change.newWeight)} (event id ${change.event.id})`;
}

export const memoryReinforce = defineTool({
  name: 'memory_reinforce',
  title: 'Reinforce memories used together',
  description:
    'Memories used together in a successful step: strengthen every unpruned edge among them by the tiny AGENT step (0.00001 by default), so useful relations rank higher over time. Never creates edges; see memory_context.',
  input: z.object({
    memory_ids: z
      .array(z.string())
      .meta({ maxItems: LIMITS.idsPerBatch })
      .describe('The memories used together, by id or key.'),
    reason: reasonInput,
  }),
  output: z.object({ count: z.number().describe('Edges strengthened.'), changes: z.array(weightChangeOutput) }),
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  document: MemoryReinforceDocument,
  argumentNames: { ids: 'memory_ids', reason: 'reason' },
  variables: (input) => defined({ ids: input.memory_ids, reason: input.reason }),
  present: (data) => {
    const changes = data.reinforceCoRetrieval.map(toWeightChange);
    if (changes.length === 0) {
      return {
        structured: { count: 0, changes },
        text: 'Nothing to strengthen: fewer than two distinct memories, or no unpruned edges among them.',
      };
    }
    const step = Math.max(...changes.map((change) => change.new_weight - change.previous_weight));
    const text = [
      `Strengthened ${changes.length} edge${changes.length === 1 ? '' : 's'} by ${small(step)}:`,
      ...data.reinforceCoRetrieval.map(changeLine),
    ].join('\n');
    return { structured: { count: changes.length, changes }, text };
  },
});
