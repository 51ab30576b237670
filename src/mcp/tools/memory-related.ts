import { z } from 'zod';
import { MemoryRelatedDocument } from '../../generated/graphql.js';
import {
  currentOnlyInput,
  detailInput,
  edgeViewOutput,
  memoryViewOutput,
  toEdgeView,
  toMemoryView,
  viewLine,
} from '../memory-view.js';
import {
  defined,
  directionInput,
  edgeTypesInput,
  label,
  limitInput,
  memoryIdNotFound,
  memoryRefInput,
  memoryRefOutput,
  round,
  toDirection,
} from '../shapes.js';
import { cursorInput, defineTool, PAGE_HINT } from '../tool.js';

export const memoryRelated = defineTool({
  name: 'memory_related',
  title: "List a memory's neighbors",
  description:
    'The memories one edge away, strongest edge first, each with its edge (id, type, weight) and direction; pruned edges only with include_pruned. Use it to follow the relations of one memory; memory_traverse goes further.',
  input: z.object({
    memory_id: memoryRefInput('The memory'),
    direction: directionInput,
    edge_types: edgeTypesInput,
    include_pruned: z.boolean().optional().meta({ default: false }).describe('Also pruned edges.'),
    limit: limitInput(20, 'neighbors'),
    cursor: cursorInput,
    detail: detailInput(),
    current_only: currentOnlyInput,
  }),
  output: z.object({
    memory: memoryRefOutput,
    neighbors: z.array(
      z.object({
        direction: z
          .enum(['outgoing', 'incoming'])
          .describe('outgoing: the edge goes from memory_id to this neighbor.'),
        edge: edgeViewOutput,
        memory: memoryViewOutput,
      }),
    ),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryRelatedDocument,
  fit: { list: ['memory', 'neighborsConnection', 'edges'], sizeArgument: 'limit', hint: PAGE_HINT },
  pages: ['memory', 'neighborsConnection'],
  argumentNames: {
    id: 'memory_id',
    types: 'edge_types',
    first: 'limit',
    after: 'cursor',
    includePruned: 'include_pruned',
    direction: 'direction',
  },
  variables: (input) =>
    defined({
      id: input.memory_id,
      direction: toDirection(input.direction),
      types: input.edge_types,
      includePruned: input.include_pruned,
      first: input.limit,
      after: input.cursor,
    }),
  present: (data, input) => {
    if (!data.memory) return memoryIdNotFound(input.memory_id);
    const listed = data.memory.neighborsConnection.edges.map(({ node: n }) => ({
      direction: n.direction === 'INCOMING' ? ('incoming' as const) : ('outgoing' as const),
      edge: toEdgeView(n.edge, input.detail),
      memory: toMemoryView(n.memory, input.detail),
    }));
    const neighbors = input.current_only ? listed.filter((n) => !n.memory.superseded) : listed;
    const head = { id: data.memory.id, key: data.memory.key, title: data.memory.title };
    const text = neighbors.length
      ? [
          `${neighbors.length} neighbor${neighbors.length === 1 ? '' : 's'} of ${label(head)}, strongest first:`,
          ...neighbors.map(
            (n) =>
              `- ${n.direction === 'outgoing' ? `-[${n.edge.type}]->` : `<-[${n.edge.type}]-`} ${viewLine(n.memory)}, weight ${round(n.edge.weight)}${n.edge.pruned ? ' (pruned)' : ''}, edge ${n.edge.id}`,
          ),
        ].join('\n')
      : `${label(head)} has no neighbors matching the filters.`;
    return { structured: { memory: head, neighbors }, text };
  },
});
