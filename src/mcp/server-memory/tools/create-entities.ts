import { z } from 'zod';
import type { Entity } from '../../../domain/server-memory.js';
import { lookupEntities, newEntityRecord, ToolFailure, write } from '../graph-io.js';
import { ADD_HINTS, defineProfileTool, entityShape, listText } from '../profile-tool.js';

export const createEntities = defineProfileTool({
  name: 'create_entities',
  title: 'Create Entities',
  description:
    'Create entities in the knowledge graph. An entity whose name exists already is left as it is and not returned.',
  input: z.object({ entities: z.array(entityShape) }),
  output: z.object({ entities: z.array(entityShape) }),
  hints: ADD_HINTS,
  async run({ entities }, execute) {
    const firstByName = new Map<string, Entity>();
    for (const entity of entities) if (!firstByName.has(entity.name)) firstByName.set(entity.name, entity);
    const create = async (): Promise<Entity[]> => {
      const existing = await lookupEntities(execute, [...firstByName.keys()]);
      const fresh = [...firstByName.values()].filter((entity) => !existing.has(entity.name));
      await write(execute, { memories: fresh.map(newEntityRecord) });
      return fresh;
    };
    let created: Entity[];
    try {
      created = await create();
    } catch (error) {
      // Another client created one of these names between the lookup and the write: look again,
      // so that name counts as existing, as it would have a moment later.
      if (!(error instanceof ToolFailure) || error.errors[0]?.code !== 'CONFLICT') throw error;
      created = await create();
    }
    // The official text is the list itself, the structured content the list under `entities`.
    return { structured: { entities: created }, text: listText(created) };
  },
});
