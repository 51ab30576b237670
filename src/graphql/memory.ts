import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import { badInput } from '../domain/errors.js';
import * as rules from '../domain/inputs.js';
import { memoryRef } from '../domain/inputs.js';
import type { Json, MemoryPatch } from '../domain/types.js';
import { supersededAmong } from '../services/supersession.js';
import * as writes from '../services/writes.js';
import { neighborFilterArgs, searchFilterArgs, searchFilterRule, sharedArgs } from './args.js';
import { builder } from './builder.js';
import { afterWrite, type EngramContext, writeScope } from './context.js';
import { DirectionEnum } from './enums.js';
import { CreateMemoryInput, UpdateMemoryInput } from './inputs.js';
import { adjacencyQueryOf, neighborsAsked } from './neighbors-ahead.js';
import { DeletePayloadRef, EdgeRef, MemoryRef, NeighborRef, PathResultRef, TraversalHitRef } from './refs.js';
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
        ...neighborFilterArgs(t.arg),
        limit: sharedArgs(t.arg).limit,
      },
      resolve: (memory, args, ctx) =>
        ctx.loaders.adjacency(adjacencyQueryOf(args, ctx.policy.pruneThreshold)).load(memory.id),
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

/** Keeps only the fields the client sent, so "left out" and "set to null" stay different. */
function toPatch(input: Record<string, unknown>): MemoryPatch {
  // title is the one field a memory cannot lose; a null here is a mistake, not "leave it".
  if (input.title === null) throw badInput('input.title', 'cannot be cleared; leave it out to keep the current title');
  const patch: MemoryPatch = {};
  for (const field of ['key', 'title', 'content', 'kind', 'tags', 'metadata'] as const) {
    if (input[field] !== undefined) (patch as Record<string, unknown>)[field] = input[field];
  }
  return patch;
}

/** The memory loader, or the one that reads the neighbours the selection asks for in the same store call. */
function memoryLoader(ctx: EngramContext, info: GraphQLResolveInfo) {
  const query = neighborsAsked(info, ctx.policy.pruneThreshold);
  return query ? ctx.loaders.memoryWithNeighbors(query) : ctx.loaders.memory;
}

builder.queryFields((t) => ({
  memory: t.field({
    type: MemoryRef,
    nullable: true,
    description: 'One memory by id or by key (give exactly one); null when it does not exist in this workspace.',
    args: {
      id: t.arg.id({ required: false, validate: rules.memoryRef, description: 'The memory id (a key works too).' }),
      key: t.arg.string({ required: false, validate: rules.memoryRef, description: 'The memory key.' }),
    },
    validate: z
      .object({ id: z.string().nullish(), key: z.string().nullish() })
      .refine((args) => (args.id == null) !== (args.key == null), {
        message: 'give exactly one of id and key',
        path: ['id'],
      }),
    resolve: async (_root, args, ctx, info) => {
      const memory = await memoryLoader(ctx, info).load((args.id ?? args.key) as string);
      // A key lookup must not return a different memory whose id happens to equal the key.
      if (memory && args.key != null && memory.key !== args.key) return null;
      return memory;
    },
  }),
  memories: t.field({
    type: [MemoryRef],
    nullable: { list: false, items: true },
    description: 'Memories by id or key, in the same order as `ids`, null where missing. At most 100 ids.',
    args: {
      ids: t.arg.idList({ required: true, validate: rules.refList, description: 'Ids or keys, at most 100.' }),
    },
    resolve: (_root, args, ctx, info) => {
      const loader = memoryLoader(ctx, info);
      return Promise.all(args.ids.map((ref) => loader.load(ref)));
    },
  }),
  searchMemories: t.field({
    type: [MemoryRef],
    description:
      'Full-text search over title, tags and content, best first: memories with every word in the title, then every word anywhere, then any word (title weighted highest within each). Words are matched whole, the last one also as a prefix; punctuation is ignored. An empty query lists the memories of `kinds` / `tags`, newest first; each kind or tag is read along its index for at most 1,000 entries, so when the other filters reject most of them the list may be short (searchMemoriesConnection pages on from there).',
    args: { ...searchFilterArgs(t.arg), limit: sharedArgs(t.arg).limit },
    validate: searchFilterRule,
    resolve: async (_root, args, ctx) => {
      const found = await ctx.store.searchMemories(ctx.workspace, {
        text: args.query,
        kinds: args.kinds ?? null,
        tags: args.tags ?? null,
        limit: args.limit,
        currentOnly: args.currentOnly,
        pruneThreshold: ctx.policy.pruneThreshold,
      });
      for (const memory of found) ctx.loaders.memory.prime(memory.id, memory);
      return found;
    },
  }),
}));

builder.mutationFields((t) => ({
  createMemory: t.field({
    type: MemoryRef,
    description: 'Creates a memory. CONFLICT when the chosen id or key is already taken in this workspace.',
    args: { input: t.arg({ type: CreateMemoryInput, required: true, description: 'The new memory.' }) },
    resolve: (_root, { input }, ctx) =>
      afterWrite(
        ctx,
        writes.createMemory(writeScope(ctx), { ...input, metadata: input.metadata as Json | null | undefined }),
      ),
  }),
  updateMemory: t.field({
    type: MemoryRef,
    description:
      'Changes the given fields of a memory. NOT_FOUND when it does not exist; CONFLICT when the new key is taken.',
    args: {
      id: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The memory, by id or key.' }),
      input: t.arg({ type: UpdateMemoryInput, required: true, description: 'The fields to change.' }),
    },
    resolve: (_root, args, ctx) =>
      afterWrite(ctx, writes.updateMemory(writeScope(ctx), args.id, toPatch(args.input), args.input.embedding ?? null)),
  }),
  deleteMemory: t.field({
    type: DeletePayloadRef,
    description:
      'Deletes a memory and every edge touching it. Its weight history is kept. NOT_FOUND when it does not exist.',
    args: { id: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The memory, by id or key.' }) },
    resolve: (_root, args, ctx) => afterWrite(ctx, writes.deleteMemory(writeScope(ctx), args.id)),
  }),
}));
