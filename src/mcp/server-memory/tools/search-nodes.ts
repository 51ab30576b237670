import { z } from 'zod';
import type { Entity } from '../../../domain/server-memory.js';
import { relationsTouching } from '../graph-io.js';
import { decodePosition, encodePosition, scanGraph } from '../pages.js';
import { cursorInput, defineProfileTool, graphShape, READ_HINTS } from '../profile-tool.js';

/** The official server's bound on a query. */
const QUERY_MAX = 2048;
/**
 * Per call: entities returned, and entities read to find them. The match is the official one (a
 * substring of name, type or an observation, any case), which no index answers, so the workspace
 * is read a page at a time; past these the answer has a next_cursor.
 */
const SEARCH_PAGE = { entities: 200, scanned: 5000 };

const matches = (query: string) => {
  const wanted = query.toLowerCase();
  return (entity: Entity): boolean =>
    entity.name.toLowerCase().includes(wanted) ||
    entity.entityType.toLowerCase().includes(wanted) ||
    entity.observations.some((observation) => observation.toLowerCase().includes(wanted));
};

export const searchNodes = defineProfileTool({
  name: 'search_nodes',
  title: 'Search Nodes',
  description:
    'Find entities whose name, type or an observation contains the query (any case), with the relations from or to them. A next_cursor means more may match: pass it as cursor.',
  input: z.object({
    query: z.string().max(QUERY_MAX).describe('Text to look for in names, types and observations.'),
    cursor: cursorInput,
  }),
  output: graphShape,
  hints: READ_HINTS,
  async run({ query, cursor }, execute) {
    const position = decodePosition('search_nodes', query, cursor);
    const scan = await scanGraph(execute, position, { ...SEARCH_PAGE, relations: 0 }, matches(query));
    const relations = await relationsTouching(
      execute,
      scan.entities.map((hit) => hit.memory.id),
    );
    return {
      structured: {
        entities: scan.entities.map((hit) => hit.entity),
        relations,
        ...(scan.next ? { next_cursor: encodePosition('search_nodes', query, scan.next) } : {}),
      },
    };
  },
});
