import { z } from 'zod';
import { ServerMemoryDeleteEntityDocument } from '../../../generated/graphql.js';
import { lookupEntities, run } from '../graph-io.js';
import { DELETE_HINTS, defineProfileTool, messageShape } from '../profile-tool.js';

export const deleteEntities = defineProfileTool({
  name: 'delete_entities',
  title: 'Delete Entities',
  description: 'Delete entities and every relation from or to them. Names that do not exist are reported, not refused.',
  input: z.object({ entityNames: z.array(z.string()).describe('Names of the entities to delete.') }),
  output: messageShape,
  hints: DELETE_HINTS,
  async run({ entityNames }, execute) {
    const stored = await lookupEntities(execute, entityNames);
    // deleteMemory removes the memory's edges in the same transaction.
    for (const memory of stored.values()) await run(execute, ServerMemoryDeleteEntityDocument, { id: memory.id });
    const notFound = entityNames.filter((name) => !stored.has(name));
    const message =
      notFound.length === 0
        ? 'Entities deleted successfully'
        : `Deleted ${entityNames.length - notFound.length} of ${entityNames.length} entities. Not found: ${notFound.join(', ')}`;
    return { structured: { success: true, message }, text: message };
  },
});
