import { z } from 'zod';
import { LIMITS } from '../../domain/inputs.js';
import { MemoryPathDocument } from '../../generated/graphql.js';
import { currentOnlyInput } from '../memory-view.js';
import { defined, directionInput, edgeTypesInput, memoryRefInput, toDirection } from '../shapes.js';
import { defineTool } from '../tool.js';

const DEFAULT_HOPS = 4;

export const memoryPath = defineTool({
  name: 'memory_path',
  title: 'Shortest path between two memories',
  description:
    'Shortest chain of unpruned edges from source_id to target_id: path lists each memory and the edge to the next; found false and a message when none. Use it to see how two memories connect; memory_traverse explores around one.',
  input: z.object({
    source_id: memoryRefInput('Start memory'),
    target_id: memoryRefInput('End memory'),
    max_hops: z
      .number()
      .int()
      .optional()
      .meta({ minimum: LIMITS.maxHops.min, maximum: LIMITS.maxHops.max, default: DEFAULT_HOPS })
      .describe('Longest path, in edges.'),
    edge_types: edgeTypesInput,
    direction: directionInput,
    current_only: currentOnlyInput,
  }),
  output: z.object({
    found: z.boolean(),
    hops: z
      .number()
      .describe('Edges in the path; 0 when source_id and target_id name the same memory, and when not found.'),
    path: z.array(
      z.object({
        id: z.string(),
        key: z.string().nullable(),
        title: z.string(),
        edge_type_to_next: z.string().nullable().describe('Type of the edge to the next step; null on the last step.'),
        edge_id_to_next: z.string().nullable(),
        edge_direction_to_next: z
          .enum(['outgoing', 'incoming'])
          .nullable()
          .describe('outgoing: the edge points from this step to the next; incoming: from the next step to this one.'),
      }),
    ),
    message: z.string().nullable().describe('Set when not found.'),
  }),
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  document: MemoryPathDocument,
  aliases: { from_id: 'source_id', to_id: 'target_id' },
  argumentNames: {
    from: 'source_id',
    to: 'target_id',
    maxHops: 'max_hops',
    types: 'edge_types',
    direction: 'direction',
  },
  variables: (input) =>
    defined({
      from: input.source_id,
      to: input.target_id,
      maxHops: input.max_hops,
      types: input.edge_types,
      direction: toDirection(input.direction),
      currentOnly: input.current_only,
    }),
  present: (data) => {
    const { found, hops, message, steps } = data.path;
    const path = steps.map((step) => ({
      id: step.memory.id,
      key: step.memory.key,
      title: step.memory.title,
      edge_type_to_next: step.edgeToNext?.type ?? null,
      edge_id_to_next: step.edgeToNext?.id ?? null,
      edge_direction_to_next: step.edgeToNext
        ? step.edgeToNext.from.id === step.memory.id
          ? ('outgoing' as const)
          : ('incoming' as const)
        : null,
    }));
    const chain = path
      .map(
        (step) =>
          `"${step.title}"${step.edge_type_to_next ? (step.edge_direction_to_next === 'outgoing' ? ` -[${step.edge_type_to_next}]-> ` : ` <-[${step.edge_type_to_next}]- `) : ''}`,
      )
      .join('');
    const text = found ? `Path of ${hops} hop${hops === 1 ? '' : 's'}: ${chain}` : (message ?? 'No path found.');
    return { structured: { found, hops, path, message }, text };
  },
});
