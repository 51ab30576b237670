import { DEFAULT_RECALL_SETTINGS } from '../config.js';
import { badInput } from '../domain/errors.js';
import type { EdgeLineValue, MemoryLineValue } from '../domain/graph-records.js';
import { nowIso } from '../domain/ids.js';
import * as rules from '../domain/inputs.js';
import { importPending, PendingBatch } from '../services/graph-import.js';
import { builder } from './builder.js';
import { JSONScalar } from './scalars.js';

/** More records than this go through `engram import` (streamed, batched) instead. */
const IMPORT_GRAPH_MAX_RECORDS = 1000;

const ImportMemoryInput = builder.inputType('ImportMemoryInput', {
  description:
    'A memory to create or replace, by id (the fields of an `engram import` memory line). Fields left out take their defaults.',
  fields: (t) => ({
    id: t.id({
      required: true,
      validate: rules.memoryId,
      description:
        'The memory id (letters, digits, _ . : / -; at most 128): an existing memory with this id is replaced.',
    }),
    key: t.string({
      required: false,
      validate: rules.memoryKey,
      description: 'Optional handle, unique in the workspace.',
    }),
    title: t.string({ required: true, validate: rules.title, description: 'Short title, 1..500 characters.' }),
    content: t.string({
      required: false,
      validate: rules.content,
      description: 'Body text, at most 65536 characters.',
    }),
    kind: t.string({
      required: false,
      validate: rules.kind,
      description: 'Free label: fact, hypothesis, experiment, decision ...',
    }),
    tags: t.stringList({
      required: false,
      validate: rules.tags,
      description: 'Free tags, at most 64, each 1..64 characters.',
    }),
    weight: t.float({ required: false, validate: rules.weight, description: 'Importance 0..1 (default 0.5).' }),
    metadata: t.field({
      type: JSONScalar,
      required: false,
      validate: rules.metadata,
      description: 'Any JSON, at most 4096 bytes serialized (UTF-8).',
    }),
  }),
});

const ImportEdgeInput = builder.inputType('ImportEdgeInput', {
  description: 'An edge to create or replace, by (from, to, type) (the fields of an `engram import` edge line).',
  fields: (t) => ({
    from: t.id({
      required: true,
      validate: rules.memoryId,
      description: 'Source memory id: in this workspace, or among the memories of the same call.',
    }),
    to: t.id({
      required: true,
      validate: rules.memoryId,
      description:
        'Target memory id: in this workspace, or among the memories of the same call; must differ from `from`.',
    }),
    type: t.string({
      required: true,
      validate: rules.relationType,
      description: 'Relation type; normalised to UPPER_SNAKE_CASE (caused_by -> CAUSED_BY).',
    }),
    weight: t.float({
      required: false,
      validate: rules.weight,
      description: 'Weight 0..1 (default 0.5); replaces the weight of an existing edge, with no WeightEvent.',
    }),
    metadata: t.field({
      type: JSONScalar,
      required: false,
      validate: rules.metadata,
      description: 'Any JSON, at most 4096 bytes; replaces the metadata of an existing edge.',
    }),
  }),
});

const ImportGraphPayloadRef = builder.objectRef<{ memories: number; edges: number }>('ImportGraphPayload').implement({
  description: 'What importGraph wrote.',
  fields: (t) => ({
    memories: t.exposeInt('memories', { description: 'Memories created or replaced.' }),
    edges: t.exposeInt('edges', { description: 'Edges created or replaced.' }),
  }),
});

builder.mutationField('importGraph', (t) =>
  t.field({
    type: ImportGraphPayloadRef,
    description: `Creates or replaces up to ${IMPORT_GRAPH_MAX_RECORDS} memories and edges in one transaction, idempotently: memories by id, edges by (from, to, type), so sending the same records twice changes nothing. Restores state without WeightEvents (use weaken/strengthen/setEdgeWeight for changes that need history). An edge may name memories of the same call. For larger graphs use \`engram import\` (NDJSON, streamed).`,
    args: {
      memories: t.arg({
        type: [ImportMemoryInput],
        required: false,
        description: 'Memories, applied before the edges.',
      }),
      edges: t.arg({
        type: [ImportEdgeInput],
        required: false,
        description: 'Edges; both ends must exist in the workspace or among `memories`.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const memories = args.memories ?? [];
      const edges = args.edges ?? [];
      if (memories.length + edges.length > IMPORT_GRAPH_MAX_RECORDS) {
        throw badInput(
          memories.length > edges.length ? 'memories' : 'edges',
          `at most ${IMPORT_GRAPH_MAX_RECORDS} records (memories and edges together) per call; use \`engram import\` for more`,
        );
      }
      const pending = new PendingBatch();
      for (const [at, memory] of memories.entries()) {
        pending.add(`memories[${at}]`, { record: 'memory', ...memory } as MemoryLineValue);
      }
      edges.forEach((edge, at) => {
        if (edge.from === edge.to) throw badInput(`edges[${at}].to`, 'a memory cannot be linked to itself');
        pending.add(`edges[${at}]`, { record: 'edge', ...edge } as EdgeLineValue);
      });
      const written = await importPending(
        {
          store: ctx.store,
          workspace: ctx.workspace,
          policy: ctx.policy,
          strictTypes: ctx.strictTypes,
          associations: (ctx.recall ?? DEFAULT_RECALL_SETTINGS).associations,
        },
        pending,
        nowIso(),
      );
      ctx.loaders.invalidate();
      return written;
    },
  }),
);
