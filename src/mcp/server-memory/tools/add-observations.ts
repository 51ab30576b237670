import { z } from 'zod';
import { observationFields } from '../../../domain/server-memory.js';
import { asEntity, entityNotFound, lookupEntities, replacedRecord, write } from '../graph-io.js';
import { ADD_HINTS, defineProfileTool, listText } from '../profile-tool.js';

export const addObservations = defineProfileTool({
  name: 'add_observations',
  title: 'Add Observations',
  description:
    'Add observations to existing entities; one the entity already has is skipped. Fails, changing nothing, when an entity does not exist.',
  input: z.object({
    observations: z.array(
      z.object({
        entityName: z.string().describe('The entity to add to.'),
        contents: z.array(z.string()).describe('The observations to add.'),
      }),
    ),
  }),
  output: z.object({
    results: z.array(z.object({ entityName: z.string(), addedObservations: z.array(z.string()) })),
  }),
  hints: ADD_HINTS,
  async run({ observations }, execute) {
    const stored = await lookupEntities(
      execute,
      observations.map((o) => o.entityName),
    );
    const current = new Map<string, string[]>();
    const results = observations.map((request, at) => {
      const memory = stored.get(request.entityName);
      if (!memory) throw entityNotFound(request.entityName, `observations.${at}.entityName`);
      const list = current.get(request.entityName) ?? asEntity(memory).observations;
      current.set(request.entityName, list);
      const added: string[] = [];
      for (const content of request.contents)
        if (!list.includes(content)) {
          list.push(content);
          added.push(content);
        }
      return { entityName: request.entityName, addedObservations: added };
    });
    const changed = [...current].filter(
      ([name, list]) => list.length > asEntity(stored.get(name) as never).observations.length,
    );
    await write(execute, {
      memories: changed.map(([name, list]) => {
        const memory = stored.get(name) as NonNullable<ReturnType<typeof stored.get>>;
        return replacedRecord(memory, observationFields(list, memory.metadata));
      }),
    });
    return { structured: { results }, text: listText(results) };
  },
});
