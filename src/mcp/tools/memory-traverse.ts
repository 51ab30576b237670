import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryTraverseDocument } from '../../generated/graphql.js';
import { currentOnlyInput, detailInput, memoryViewOutput, toMemoryView, viewLine } from '../memory-view.js';
import {
  defined,
  directionInput,
  edgeTypesInput,
  label,
  limitInput,
  memoryIdNotFound,
  memoryRefInput,
  memoryRefOutput,
  toDirection,
} from '../shapes.js';
import { defineTool } from '../tool.js';

const DEFAULT_DEPTH = 3;

interface WalkedEdge {
  id: string;
  from: { id: string };
  to: { id: string };
}

/** The memory the edge into a hit left from; a walk may follow an edge backwards. */
function parentOf(via: readonly WalkedEdge[], hitId: string): string {
  const last = via.at(-1);
  if (!last) return '';
  return last.from.id === hitId ? last.to.id : last.from.id;
}

export const memoryTraverse = defineTool({
  name: 'memory_traverse',
  title: 'Walk the graph around a memory',
  description:
    'Breadth-first walk over unpruned edges: each memory reached once, at its smallest depth, with the edge_id that reached it (detail full: the whole path). Use it to explore a neighborhood; memory_related takes one step, memory_path joins two.',
  input: z.object({
    memory_id: memoryRefInput('Start memory'),
    max_depth: z
      .number()
      .int()
      .optional()
      .meta({ minimum: LIMITS.maxDepth.min, maximum: LIMITS.maxDepth.max, default: DEFAULT_DEPTH })
      .describe('How many edges deep to walk.'),
    edge_types: edgeTypesInput,
    direction: directionInput,
    limit: limitInput(20, 'memories'),
    detail: detailInput(),
    current_only: currentOnlyInput,
  }),
  output: z.object({
    start: memoryRefOutput,
    hits: z.array(
      z.object({
        depth: z.number().describe('Edges from the start (1 = a direct neighbor).'),
        memory: memoryViewOutput,
        edge_id: z
          .string()
          .describe('The edge that reached this memory (it touches it: pass it as via_edge_ids to memory_feedback).'),
        parent_id: z
          .string()
          .optional()
          .describe('detail full: the memory that edge came from, the start or an earlier hit.'),
        path: z
          .array(
            z.object({
              edge_id: z.string(),
              type: z.string(),
              source_id: z.string(),
              target_id: z.string(),
              weight: z.number(),
            }),
          )
          .optional()
          .describe('detail full: every edge walked from the start to this memory, in order.'),
      }),
    ),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryTraverseDocument,
  fit: { list: ['memory', 'traverse'], sizeArgument: 'limit' },
  argumentNames: {
    id: 'memory_id',
    maxDepth: 'max_depth',
    types: 'edge_types',
    limit: 'limit',
    direction: 'direction',
    currentOnly: 'current_only',
  },
  variables: (input) =>
    defined({
      id: input.memory_id,
      maxDepth: input.max_depth,
      types: input.edge_types,
      direction: toDirection(input.direction),
      limit: input.limit,
      currentOnly: input.current_only,
    }),
  present: (data, input) => {
    if (!data.memory) return memoryIdNotFound(input.memory_id);
    const start = { id: data.memory.id, key: data.memory.key, title: data.memory.title };
    const detail = input.detail;
    const parents = data.memory.traverse.map((hit) => parentOf(hit.via, hit.memory.id));
    const hits = data.memory.traverse.map((hit, at) => ({
      depth: hit.depth,
      memory: toMemoryView(hit.memory, detail),
      edge_id: hit.via.at(-1)?.id ?? '',
      ...(detail === 'full'
        ? {
            parent_id: parents[at],
            path: hit.via.map((edge) => ({
              edge_id: edge.id,
              type: edge.type,
              source_id: edge.from.id,
              target_id: edge.to.id,
              weight: edge.weight,
            })),
          }
        : {}),
    }));
    const keys = new Map([[start.id, 'the start'], ...hits.map((hit) => [hit.memory.id, hit.memory.key] as const)]);
    const parentName = (at: number): string => {
      const parent = parents[at] ?? '';
      return keys.get(parent) ?? parent;
    };
    const text = hits.length
      ? [
          `${hits.length} memor${hits.length === 1 ? 'y' : 'ies'} reached from ${label(start)}:`,
          ...hits.map(
            (h, at) => `- depth ${h.depth}: ${viewLine(h.memory)} via edge ${h.edge_id} from ${parentName(at)}`,
          ),
        ].join('\n')
      : `Nothing reachable from ${label(start)} with these filters.`;
    return { structured: { start, hits }, text };
  },
});
