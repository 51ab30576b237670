import { memoryRef, minWeight as minWeightRule } from '../domain/inputs.js';
import { supersededAmong } from '../services/supersession.js';
import { sharedArgs } from './args.js';
import { DirectionEnum } from './enums.js';
import { EdgeRef, MemoryRef, NeighborRef, PathResultRef, TraversalHitRef } from './refs.js';
import { DateTime, JSONScalar } from './scalars.js';
import { resolvePath, resolveTraverse } from './walk-resolvers.js';

MemoryRef.implement({
  description:
    'A memory: one node of the graph (a fact, hypothesis, decision, experiment ...). Memories are linked by typed, weighted edges.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'Stable id (UUIDv7 unless chosen at creation). Anywhere a memory is named, its key works too.',
    }),
    key: t.exposeString('key', {
      nullable: true,
      description: 'Optional human handle, unique per workspace (e.g. "postgres-choice"); usable wherever an id is.',
    }),
    title: t.exposeString('title', { description: 'Short title; searched with the highest weight.' }),
    content: t.exposeString('content', { nullable: true, description: 'The body of the memory; searched.' }),
    kind: t.exposeString('kind', {
      nullable: true,
      description: 'Free label: fact, hypothesis, experiment, decision ...',
    }),
    tags: t.exposeStringList('tags', { description: 'Free tags; searched, and filterable in searchMemories.' }),
    weight: t.exposeFloat('weight', { description: "The memory's own importance, 0..1; moved by feedback." }),
    metadata: t.expose('metadata', {
      type: JSONScalar,
      nullable: true,
      description: 'Any JSON the client stores with the memory (at most 4096 bytes).',
    }),
    createdAt: t.expose('createdAt', { type: DateTime, description: 'When the memory was created (UTC).' }),
    updatedAt: t.expose('updatedAt', {
      type: DateTime,
      description: 'When the memory or its weight last changed (UTC).',
    }),
    hasEmbedding: t.boolean({
      description:
        'Whether the memory has a vector for its current text (docs/vectors.md); false until the endpoint or the client gives it one.',
      resolve: (memory, _args, ctx) => ctx.loaders.hasEmbedding.load(memory.id),
    }),
    neighbors: t.field({
      type: [NeighborRef],
      description:
        'Memories joined to this one by an edge, strongest edge first (weight desc, then edge id), so `limit` keeps the strongest. Pruned edges are left out unless includePruned.',
      args: {
        direction: sharedArgs(t.arg).direction,
        types: sharedArgs(t.arg).types,
        minWeight: t.arg.float({
          required: false,
          validate: minWeightRule,
          description: 'Only edges with at least this weight (0..1).',
        }),
        includePruned: t.arg.boolean({
          defaultValue: false,
          required: true,
          description: 'Include pruned edges (weight at or below the prune threshold, 0.05 by default).',
        }),
        limit: sharedArgs(t.arg).limit,
      },
      resolve: (memory, args, ctx) =>
        ctx.loaders
          .adjacency({
            direction: args.direction,
            types: args.types ?? null,
            minWeight: args.minWeight ?? null,
            includePruned: args.includePruned,
            pruneThreshold: ctx.policy.pruneThreshold,
            limitPerMemory: args.limit,
          })
          .load(memory.id),
    }),
    degree: t.int({
      description: 'How many unpruned edges touch this memory in the given direction (and of the given types).',
      args: { direction: sharedArgs(t.arg).direction, types: sharedArgs(t.arg).types },
      resolve: (memory, args, ctx) =>
        ctx.loaders
          .degree({
            direction: args.direction,
            types: args.types ?? null,
            includePruned: false,
            pruneThreshold: ctx.policy.pruneThreshold,
          })
          .load(memory.id),
    }),
    superseded: t.boolean({
      description:
        'True when a newer memory replaces this one (an unpruned SUPERSEDES edge points at it). All the memories of a request are checked in one store call; searchMemories(currentOnly: true) leaves them out.',
      resolve: async (memory, _args, ctx) => (await supersededAmong(ctx, [memory.id])).has(memory.id),
    }),
    path: t.field({
      type: PathResultRef,
      description: 'The shortest path from this memory to another, skipping pruned edges. See Query.path.',
      args: {
        to: t.arg.id({ required: true, validate: memoryRef, description: 'The memory to reach, by id or key.' }),
        maxHops: sharedArgs(t.arg).maxHops,
        types: sharedArgs(t.arg).types,
        direction: sharedArgs(t.arg).direction,
        currentOnly: sharedArgs(t.arg).currentOnly,
      },
      resolve: (memory, args, ctx) => resolvePath(ctx, memory, args.to, args),
    }),
    traverse: t.field({
      type: [TraversalHitRef],
      description:
        'Breadth-first walk from this memory, skipping pruned edges. Each memory is reported once, at its smallest depth; ordered by depth, then the weight of the last edge (strongest first).',
      args: {
        maxDepth: sharedArgs(t.arg).maxDepth,
        types: sharedArgs(t.arg).types,
        direction: sharedArgs(t.arg).direction,
        limit: sharedArgs(t.arg).limit,
        currentOnly: sharedArgs(t.arg).currentOnly,
      },
      resolve: (memory, args, ctx) => resolveTraverse(ctx, memory, args),
    }),
  }),
});

NeighborRef.implement({
  description: 'A memory next to another one, with the edge that joins them.',
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The memory at the other end of the edge.',
      resolve: (entry) => entry.neighbor,
    }),
    edge: t.field({ type: EdgeRef, description: 'The edge joining the two memories.', resolve: (entry) => entry.edge }),
    direction: t.field({
      type: DirectionEnum,
      description:
        'OUTGOING when the edge goes from the parent memory to `memory`, INCOMING when it comes from `memory`.',
      resolve: (entry) => entry.direction,
    }),
  }),
});
