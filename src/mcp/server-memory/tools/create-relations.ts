import { z } from 'zod';
import type { Relation } from '../../../domain/server-memory.js';
import { edgeMetadataFor, relationTextsOf, relationTypeFor } from '../../../domain/server-memory.js';
import type { ImportEdgeInput } from '../../../generated/graphql.js';
import { storedEdge } from '../edges.js';
import { entityNotFound, lookupEntities, ToolFailure, write } from '../graph-io.js';
import { ADD_HINTS, defineProfileTool, listText, relationShape } from '../profile-tool.js';

/** importGraph's weight for a new edge (the API's default). */
const NEW_EDGE_WEIGHT = 0.5;

export const createRelations = defineProfileTool({
  name: 'create_relations',
  title: 'Create Relations',
  description:
    'Create relations between existing entities, in active voice. A relation that exists already is left as it is and not returned; a missing entity fails the call, changing nothing.',
  input: z.object({ relations: z.array(relationShape) }),
  output: z.object({ relations: z.array(relationShape) }),
  hints: ADD_HINTS,
  async run({ relations }, execute) {
    const stored = await lookupEntities(
      execute,
      relations.flatMap((r) => [r.from, r.to]),
    );
    relations.forEach((relation, at) => {
      for (const end of ['from', 'to'] as const)
        if (!stored.has(relation[end])) throw entityNotFound(relation[end], `relations.${at}.${end}`);
      if (relation.from === relation.to)
        throw new ToolFailure([
          {
            code: 'BAD_USER_INPUT',
            message: `relations.${at}: a relation from an entity to itself (${relation.from}) cannot be stored: Engram links two different memories`,
            argument: `relations.${at}`,
            retryable: false,
          },
        ]);
    });
    // One edge per (from, to, type); the texts that map to one type are kept on it, in order.
    const groups = new Map<string, { from: string; to: string; type: string; texts: string[] }>();
    for (const relation of relations) {
      const from = stored.get(relation.from)?.id as string;
      const to = stored.get(relation.to)?.id as string;
      const type = relationTypeFor(relation.relationType);
      const id = JSON.stringify([from, to, type]);
      const group = groups.get(id) ?? { from, to, type, texts: [] };
      groups.set(id, group);
      if (!group.texts.includes(relation.relationType)) group.texts.push(relation.relationType);
    }
    const edges: ImportEdgeInput[] = [];
    const added = new Set<string>();
    for (const group of groups.values()) {
      const edge = await storedEdge(execute, group.from, group.to, group.type);
      const texts = edge ? relationTextsOf(edge) : [];
      const fresh = group.texts.filter((text) => !texts.includes(text));
      if (fresh.length === 0) continue;
      const metadata = edgeMetadataFor(group.type, [...texts, ...fresh], edge?.metadata ?? null);
      edges.push({
        from: group.from,
        to: group.to,
        type: group.type,
        // importGraph replaces weight and metadata: an edge feedback has moved keeps its weight.
        weight: edge?.weight ?? NEW_EDGE_WEIGHT,
        ...(metadata ? { metadata } : {}),
      });
      for (const text of fresh) added.add(JSON.stringify([group.from, group.to, text]));
    }
    await write(execute, { edges });
    // Answered in the caller's words and order: each relation new to the graph, once.
    const answered: Relation[] = [];
    for (const relation of relations) {
      const id = JSON.stringify([stored.get(relation.from)?.id, stored.get(relation.to)?.id, relation.relationType]);
      if (!added.delete(id)) continue;
      answered.push({ from: relation.from, to: relation.to, relationType: relation.relationType });
    }
    return { structured: { relations: answered }, text: listText(answered) };
  },
});
