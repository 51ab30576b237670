import { z } from 'zod';
import { decodePosition, encodePosition, scanGraph } from '../pages.js';
import { cursorInput, defineProfileTool, graphShape, READ_HINTS } from '../profile-tool.js';

/**
 * One answer holds this much: the whole graph of most users of the official server (whose
 * read_graph has no bound at all), while a large workspace comes in pages instead of one answer
 * that no context window holds.
 */
const READ_GRAPH_PAGE = { entities: 500, relations: 1000 };

export const readGraph = defineProfileTool({
  name: 'read_graph',
  title: 'Read Graph',
  description: `Read the knowledge graph: every entity, then every relation. Past ${READ_GRAPH_PAGE.entities} entities or ${READ_GRAPH_PAGE.relations} relations the answer has a next_cursor; pass it as cursor for the rest.`,
  input: z.object({ cursor: cursorInput }),
  output: graphShape,
  hints: READ_HINTS,
  async run({ cursor }, execute) {
    const position = decodePosition('read_graph', '', cursor);
    const scan = await scanGraph(execute, position, {
      entities: READ_GRAPH_PAGE.entities,
      scanned: READ_GRAPH_PAGE.entities,
      relations: READ_GRAPH_PAGE.relations,
    });
    return {
      structured: {
        entities: scan.entities.map((hit) => hit.entity),
        relations: scan.relations,
        ...(scan.next ? { next_cursor: encodePosition('read_graph', '', scan.next) } : {}),
      },
    };
  },
});
