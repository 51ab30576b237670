import { z } from 'zod';
import * as rules from '../domain/inputs.js';
import { KNOWN_RELATION_TYPES } from '../domain/relations.js';
import { requireMemory } from '../services/writes.js';
import { sharedArgs } from './args.js';
import { builder } from './builder.js';
import { writeScope } from './context.js';
import { AdjustmentSourceEnum } from './enums.js';
import { EdgeRef, MemoryRef, PathResultRef, RelationTypeRef, WeightEventRef } from './refs.js';
import { resolvePath } from './walk-resolvers.js';

builder.queryType({
  description:
    'Reads. Every read acts inside the workspace of the request (x-engram-workspace header, default "default").',
  fields: (t) => ({
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
      resolve: async (_root, args, ctx) => {
        const memory = await ctx.loaders.memory.load((args.id ?? args.key) as string);
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
      resolve: (_root, args, ctx) => Promise.all(args.ids.map((ref) => ctx.loaders.memory.load(ref))),
    }),
    searchMemories: t.field({
      type: [MemoryRef],
      description:
        'Full-text search over title, tags and content, best first: memories with every word in the title, then every word anywhere, then any word (title weighted highest within each). Words are matched whole, the last one also as a prefix; punctuation is ignored. An empty query lists the memories of `kinds` / `tags`, newest first.',
      args: {
        query: t.arg.string({
          required: true,
          validate: rules.searchText,
          description: 'Words to look for (at most 500 characters); empty to list by kinds or tags.',
        }),
        kinds: t.arg.stringList({
          required: false,
          validate: z.array(rules.kind).max(64),
          description: 'Only memories of these kinds.',
        }),
        tags: t.arg.stringList({
          required: false,
          validate: rules.tags,
          description: 'Only memories carrying at least one of these tags.',
        }),
        limit: sharedArgs(t.arg).limit,
        currentOnly: t.arg.boolean({
          defaultValue: false,
          required: true,
          description:
            'Leave out superseded memories (those an unpruned SUPERSEDES edge points at); the limit is still filled from current ones.',
        }),
      },
      validate: z
        // passthrough: the parsed object replaces the arguments, and limit/currentOnly must survive it.
        .object({ query: z.string(), kinds: z.array(z.string()).nullish(), tags: z.array(z.string()).nullish() })
        .passthrough()
        .refine((args) => args.query.trim() !== '' || Boolean(args.kinds?.length) || Boolean(args.tags?.length), {
          message: 'must not be empty unless kinds or tags are given',
          path: ['query'],
        }),
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
    edge: t.field({
      type: EdgeRef,
      nullable: true,
      description: 'One edge by id; null when it does not exist in this workspace.',
      args: { id: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The edge id.' }) },
      resolve: (_root, args, ctx) => ctx.loaders.edge.load(args.id),
    }),
    edgesBetween: t.field({
      type: [EdgeRef],
      description:
        'Every edge joining two memories, in either direction, strongest first (pruned edges included: check `pruned`).',
      args: {
        from: t.arg.id({ required: true, validate: rules.memoryRef, description: 'One memory, by id or key.' }),
        to: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The other memory, by id or key.' }),
        types: sharedArgs(t.arg).types,
      },
      resolve: async (_root, args, ctx) => {
        const [from, to] = await Promise.all([
          requireMemory(writeScope(ctx), args.from, 'from').then((memory) => memory.id),
          requireMemory(writeScope(ctx), args.to, 'to').then((memory) => memory.id),
        ]);
        return ctx.store.edgesBetween(ctx.workspace, from, to, args.types ?? null);
      },
    }),
    path: t.field({
      type: PathResultRef,
      description:
        'The shortest path between two memories over unpruned edges, following `direction` (BOTH ignores it). Among equally short paths the same one is picked every time.',
      args: {
        from: t.arg.id({ required: true, validate: rules.memoryRef, description: 'Start memory, by id or key.' }),
        to: t.arg.id({ required: true, validate: rules.memoryRef, description: 'End memory, by id or key.' }),
        maxHops: sharedArgs(t.arg).maxHops,
        types: sharedArgs(t.arg).types,
        direction: sharedArgs(t.arg).direction,
        currentOnly: sharedArgs(t.arg).currentOnly,
      },
      resolve: (_root, args, ctx) => resolvePath(ctx, args.from, args.to, args),
    }),
    relationTypes: t.field({
      type: [RelationTypeRef],
      description: 'The known relation vocabulary, with what each type means and its inverse reading.',
      resolve: () => KNOWN_RELATION_TYPES,
    }),
    weightEvents: t.field({
      type: [WeightEventRef],
      description: 'Weight changes, newest first, optionally only those of one edge, one memory, or one source.',
      args: {
        edgeId: t.arg.id({ required: false, validate: rules.memoryRef, description: 'Only events of this edge.' }),
        memoryId: t.arg.id({
          required: false,
          validate: rules.memoryRef,
          description: 'Only events of this memory (by id or key).',
        }),
        source: t.arg({ type: AdjustmentSourceEnum, required: false, description: 'Only events from this source.' }),
        limit: t.arg.int({
          defaultValue: 50,
          required: true,
          validate: rules.limit,
          description: 'Most events to return, 1..100.',
        }),
      },
      resolve: async (_root, args, ctx) => {
        const memoryId =
          args.memoryId == null ? null : (await requireMemory(writeScope(ctx), args.memoryId, 'memoryId')).id;
        return ctx.store.listWeightEvents(ctx.workspace, {
          edgeId: args.edgeId ?? null,
          memoryId,
          source: args.source ?? null,
          limit: args.limit,
        });
      },
    }),
  }),
});
