import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryTraverseDocument } from '../../generated/graphql.js';
import {
  defined,
  directionInput,
  edgeTypesInput,
  label,
  limitInput,
  memoryOutput,
  memoryRefInput,
  memoryRefOutput,
  toDirection,
  toMemory,
} from '../shapes.js';
import { defineTool } from '../tool.js';

const DEFAULT_DEPTH = 3;

export const memoryTraverse = defineTool({
  name: 'memory_traverse',
  title: 'Explore the graph around a memory (breadth-first)',
  description: [
    'Walk breadth-first from one memory (by id or key) over unpruned edges and return every memory reached, once, at its smallest depth, with the path of edges walked to get there.',
    `max_depth ${LIMITS.maxDepth.min}-${LIMITS.maxDepth.max} (default ${DEFAULT_DEPTH}); edge_types keeps only those relation types; direction both (default), outgoing or incoming; limit 1-100 (default 20).`,
    'Ordered by depth, then by the weight of the last edge, strongest first. The start memory itself is not listed. Read-only.',
    'Use it to gather context several steps around a memory (e.g. everything a decision was CAUSED_BY, transitively); memory_related for one step with edge details, memory_path between two known memories.',
    'NOT_FOUND when the start memory does not exist.',
  ].join(' '),
  input: z.object({
    memory_id: memoryRefInput('Start memory'),
    max_depth: z
      .number()
      .int()
      .optional()
      .meta({ minimum: LIMITS.maxDepth.min, maximum: LIMITS.maxDepth.max, default: DEFAULT_DEPTH })
      .describe(
        `How many edges deep to walk, ${LIMITS.maxDepth.min}-${LIMITS.maxDepth.max} (default ${DEFAULT_DEPTH}).`,
      ),
    edge_types: edgeTypesInput,
    direction: directionInput,
    limit: limitInput(20, 'memories'),
  }),
  output: z.object({
    start: memoryRefOutput,
    hits: z.array(
      z.object({
        depth: z.number().int().describe('Edges from the start (1 = a direct neighbor).'),
        memory: memoryOutput,
        path: z
          .array(
            z.object({
              edge_id: z.string(),
              type: z.string(),
              from_id: z.string(),
              to_id: z.string(),
              weight: z.number(),
            }),
          )
          .describe('The edges walked from the start to this memory, in order.'),
      }),
    ),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryTraverseDocument,
  argumentNames: {
    id: 'memory_id',
    maxDepth: 'max_depth',
    types: 'edge_types',
    limit: 'limit',
    direction: 'direction',
  },
  variables: (input) =>
    defined({
      id: input.memory_id,
      maxDepth: input.max_depth,
      types: input.edge_types,
      direction: toDirection(input.direction),
      limit: input.limit,
    }),
  present: (data, input) => {
    if (!data.memory) {
      return {
        error: {
          code: 'NOT_FOUND',
          message: `memory_id: no memory "${input.memory_id}" in this workspace`,
          argument: 'memory_id',
          retryable: false,
        },
      };
    }
    const start = { id: data.memory.id, key: data.memory.key, title: data.memory.title };
    const hits = data.memory.traverse.map((hit) => ({
      depth: hit.depth,
      memory: toMemory(hit.memory),
      path: hit.via.map((edge) => ({
        edge_id: edge.id,
        type: edge.type,
        from_id: edge.from.id,
        to_id: edge.to.id,
        weight: edge.weight,
      })),
    }));
    const text = hits.length
      ? [
          `${hits.length} memor${hits.length === 1 ? 'y' : 'ies'} reached from ${label(start)}:`,
          ...hits.map((h) => `- depth ${h.depth} via ${h.path.map((e) => e.type).join(' > ')}: ${label(h.memory)}`),
        ].join('\n')
      : `Nothing reachable from ${label(start)} with these filters.`;
    return { structured: { start, hits }, text };
  },
});
