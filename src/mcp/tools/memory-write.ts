import { z } from 'zod';
import { normaliseRelationType } from '../../domain/relations.js';
import { MemoryWriteDocument, MemoryWriteLookupDocument } from '../../generated/graphql.js';
import { EDGE_ALIASES, edgeTypeInput, metadataInput, unknownTypeWarning, warningsOutput } from '../shapes.js';
import { errorResult, type RegisteredEngramTool, registerStrictTool, type ToolHints } from '../tool.js';
import { type ExistingMemory, namesToLookUp, planWrite } from '../write-plan.js';

/** The lookup answers at most this many names (Query.memories). */
const MAX_NAMES = 100;

const input = z.object({
  memories: z
    .array(
      z.object({
        ref: z.string().optional().describe('Local name for edges, e.g. @a.'),
        id: z.string().optional(),
        key: z.string().optional(),
        title: z.string(),
        content: z.string().optional(),
        kind: z.string().optional(),
        tags: z.array(z.string()).optional(),
        metadata: metadataInput.optional(),
      }),
    )
    .optional(),
  edges: z
    .array(
      z.object({
        source_id: z.string().describe('A ref, id or key.'),
        target_id: z.string().describe('A ref, id or key.'),
        edge_type: edgeTypeInput.describe('Relation type, as in memory_link.'),
        weight: z.number().optional().meta({ minimum: 0, maximum: 1, default: 0.5 }),
        metadata: metadataInput.optional(),
      }),
    )
    .optional(),
});

const output = z.object({
  memories: z.array(
    z.object({
      ref: z.string().nullable(),
      id: z.string(),
      key: z.string().nullable(),
      status: z.enum(['created', 'replaced', 'unchanged']),
    }),
  ),
  memories_written: z.number(),
  edges_written: z.number(),
  edges_unchanged: z.number().describe('Edges already stored exactly as given.'),
  warnings: warningsOutput,
});

const HINTS: ToolHints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

const DESCRIPTION =
  'Write memories and edges in one transaction; edges name memories by id, key or the ref ("@a") of a new memory. ' +
  'Idempotent: a memory whose key or id exists is replaced (weight kept), others get an id from key or text, edges upserted at weight. ' +
  'Returns each memory id; memory_create writes one.';

export const memoryWrite: RegisteredEngramTool = {
  name: 'memory_write',
  register(server, { execute, logger }) {
    const meta = {
      name: 'memory_write',
      title: 'Write memories and edges in one batch',
      description: DESCRIPTION,
      input,
      output,
      hints: HINTS,
      // Edge ends arrive as refs, ids or keys; aliases as on memory_link apply to each edge.
      listAliases: { edges: EDGE_ALIASES },
    };
    registerStrictTool(server, meta, logger, async (batch) => {
      const memories = batch.memories ?? [];
      const edges = batch.edges ?? [];
      const names = namesToLookUp(memories, edges);
      if (names.length > MAX_NAMES)
        return errorResult([
          {
            code: 'BAD_USER_INPUT',
            message: `memories: at most ${MAX_NAMES} distinct existing ids and keys per call; split the batch`,
            argument: 'memories',
            retryable: false,
          },
        ]);
      const existing = new Map<string, ExistingMemory>();
      if (names.length > 0) {
        const lookup = await execute(MemoryWriteLookupDocument, { ids: names });
        if (lookup.errors) return errorResult(lookup.errors);
        lookup.data.memories.forEach((memory, at) => {
          if (memory) existing.set(names[at] as string, memory);
        });
      }
      const plan = planWrite(memories, edges, existing);
      if ('errors' in plan) return errorResult(plan.errors);
      const outcome = await execute(MemoryWriteDocument, plan.variables);
      if (outcome.errors) return errorResult(outcome.errors);
      const warnings = [
        ...new Set(
          edges.map((edge) => unknownTypeWarning(normaliseRelationType(edge.edge_type))).filter((w) => w !== null),
        ),
      ];
      const structured = {
        memories: plan.written,
        memories_written: outcome.data.importGraph.memories,
        edges_written: outcome.data.importGraph.edges,
        edges_unchanged: plan.unchangedEdges,
        ...(warnings.length > 0 ? { warnings } : {}),
      };
      const text = [
        `Wrote ${structured.memories_written} memories and ${structured.edges_written} edges in one transaction (${plan.unchangedEdges} edges unchanged):`,
        ...plan.written.map(
          (memory) =>
            `- ${memory.ref ?? memory.key ?? ''} -> id ${memory.id}${memory.key ? ` (key ${memory.key})` : ''}, ${memory.status}`,
        ),
        ...warnings.map((warning) => `Warning: ${warning}`),
      ].join('\n');
      return { content: [{ type: 'text', text }], structuredContent: structured };
    });
  },
};
