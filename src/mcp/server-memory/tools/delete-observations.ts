import { z } from 'zod';
import { observationFields } from '../../../domain/server-memory.js';
import { asEntity, lookupEntities, replacedRecord, write } from '../graph-io.js';
import { DELETE_HINTS, defineProfileTool, messageShape } from '../profile-tool.js';

export const deleteObservations = defineProfileTool({
  name: 'delete_observations',
  title: 'Delete Observations',
  description:
    'Delete observations from entities, the rest kept in order. Observations or entities that do not exist are reported, not refused.',
  input: z.object({
    deletions: z.array(
      z.object({
        entityName: z.string().describe('The entity holding the observations.'),
        observations: z.array(z.string()).describe('The observations to delete.'),
      }),
    ),
  }),
  output: messageShape,
  hints: DELETE_HINTS,
  async run({ deletions }, execute) {
    const stored = await lookupEntities(
      execute,
      deletions.map((d) => d.entityName),
    );
    const current = new Map<string, string[]>();
    const missing: string[] = [];
    let deleted = 0;
    for (const deletion of deletions) {
      const memory = stored.get(deletion.entityName);
      if (!memory) {
        missing.push(deletion.entityName);
        continue;
      }
      const list = current.get(deletion.entityName) ?? asEntity(memory).observations;
      const kept = list.filter((observation) => !deletion.observations.includes(observation));
      deleted += list.length - kept.length;
      current.set(deletion.entityName, kept);
    }
    const changed = [...current].filter(
      ([name, list]) => list.length < asEntity(stored.get(name) as never).observations.length,
    );
    await write(execute, {
      memories: changed.map(([name, list]) => {
        const memory = stored.get(name) as NonNullable<ReturnType<typeof stored.get>>;
        return replacedRecord(memory, observationFields(list, memory.metadata));
      }),
    });
    const requested = deletions.reduce((total, d) => total + d.observations.length, 0);
    const message =
      deleted === requested
        ? 'Observations deleted successfully'
        : `Deleted ${deleted} of ${requested} observations.${missing.length > 0 ? ` Entities not found: ${missing.join(', ')}` : ''}`;
    return { structured: { success: true, message }, text: message };
  },
});
