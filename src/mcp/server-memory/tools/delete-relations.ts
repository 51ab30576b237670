import { z } from 'zod';
import { edgeMetadataFor, relationTextsOf, relationTypeFor } from '../../../domain/server-memory.js';
import { type RelationFieldsFragment, ServerMemoryUnlinkDocument } from '../../../generated/graphql.js';
import { storedEdge } from '../edges.js';
import { lookupEntities, run, write } from '../graph-io.js';
import { DELETE_HINTS, defineProfileTool, messageShape, relationShape } from '../profile-tool.js';

export const deleteRelations = defineProfileTool({
  name: 'delete_relations',
  title: 'Delete Relations',
  description:
    'Delete relations, matched by from, to and relationType exactly. Ones that do not exist are reported, not refused.',
  input: z.object({ relations: z.array(relationShape).describe('The relations to delete.') }),
  output: messageShape,
  hints: DELETE_HINTS,
  async run({ relations }, execute) {
    const stored = await lookupEntities(
      execute,
      relations.flatMap((r) => [r.from, r.to]),
    );
    // What remains of each edge touched, as the texts it still stands for.
    const remaining = new Map<string, { edge: RelationFieldsFragment; texts: string[] }>();
    let deleted = 0;
    for (const relation of relations) {
      const from = stored.get(relation.from)?.id;
      const to = stored.get(relation.to)?.id;
      if (from === undefined || to === undefined) continue;
      const type = relationTypeFor(relation.relationType);
      const key = JSON.stringify([from, to, type]);
      let entry = remaining.get(key);
      if (!entry) {
        const edge = await storedEdge(execute, from, to, type);
        if (!edge) continue;
        entry = { edge, texts: relationTextsOf(edge) };
        remaining.set(key, entry);
      }
      const before = entry.texts.length;
      entry.texts = entry.texts.filter((text) => text !== relation.relationType);
      deleted += before - entry.texts.length;
    }
    const changed = [...remaining.values()].filter(({ edge, texts }) => texts.length < relationTextsOf(edge).length);
    for (const { edge } of changed.filter(({ texts }) => texts.length === 0))
      await run(execute, ServerMemoryUnlinkDocument, { id: edge.id });
    await write(execute, {
      edges: changed
        .filter(({ texts }) => texts.length > 0)
        .map(({ edge, texts }) => {
          const metadata = edgeMetadataFor(edge.type, texts, edge.metadata);
          return {
            from: edge.from.id,
            to: edge.to.id,
            type: edge.type,
            weight: edge.weight,
            ...(metadata ? { metadata } : {}),
          };
        }),
    });
    const message =
      deleted === relations.length
        ? 'Relations deleted successfully'
        : `Deleted ${deleted} of ${relations.length} relations. The rest matched nothing.`;
    return { structured: { success: true, message }, text: message };
  },
});
