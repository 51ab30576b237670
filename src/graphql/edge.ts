import * as rules from '../domain/inputs.js';
import { limit as limitRule } from '../domain/inputs.js';
import type { Json } from '../domain/types.js';
import { isPruned } from '../domain/weights.js';
import * as writes from '../services/writes.js';
import { requireMemory } from '../services/writes.js';
import { pageArgs, sharedArgs } from './args.js';
import { builder } from './builder.js';
import { keysetPage } from './connections.js';
import { afterWrite, writeScope } from './context.js';
import { LinkInput, UnlinkInput } from './inputs.js';
import { loadMemory } from './load.js';
import { EdgeRef, MemoryRef, UnlinkPayloadRef, WeightEventRef } from './refs.js';
import { DateTime, JSONScalar } from './scalars.js';
import { eventPosition, fromEventPosition, WeightEventConnectionRef } from './weight.js';

EdgeRef.implement({
  description: 'A typed, weighted relation from one memory to another. There is at most one edge per (from, to, type).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable id of the edge (UUIDv7).' }),
    type: t.exposeString('type', {
      description: 'Relation type in UPPER_SNAKE_CASE: CAUSED_BY, SUPERSEDES, VALIDATES ... (see relationTypes).',
    }),
    from: t.field({
      type: MemoryRef,
      description: 'The memory the edge starts at.',
      resolve: (edge, _args, ctx) => loadMemory(ctx, edge.fromId),
    }),
    to: t.field({
      type: MemoryRef,
      description: 'The memory the edge points to.',
      resolve: (edge, _args, ctx) => loadMemory(ctx, edge.toId),
    }),
    weight: t.exposeFloat('weight', {
      description: 'Strength of the relation, 0..1; moved by weaken, strengthen, feedback and setEdgeWeight.',
    }),
    pruned: t.boolean({
      description:
        'True when the weight is at or below the prune threshold (0.05 by default): hidden from neighbors, path and traverse unless asked; never deleted, and revived by strengthening.',
      resolve: (edge, _args, ctx) => isPruned(edge.weight, ctx.policy),
    }),
    metadata: t.expose('metadata', {
      type: JSONScalar,
      nullable: true,
      description: 'Any JSON stored with the edge (at most 4096 bytes); re-linking merges new keys in.',
    }),
    createdAt: t.expose('createdAt', { type: DateTime, description: 'When the edge was created (UTC).' }),
    updatedAt: t.expose('updatedAt', {
      type: DateTime,
      description: 'When the edge, its metadata or its weight last changed (UTC).',
    }),
    lastConfirmedAt: t.expose('lastConfirmedAt', {
      type: DateTime,
      nullable: true,
      description: 'When the edge was last linked again (confirmed); null if it was only created.',
    }),
    history: t.field({
      type: [WeightEventRef],
      description: "The edge's weight changes, newest first.",
      args: {
        limit: t.arg.int({
          defaultValue: 20,
          required: true,
          validate: limitRule,
          description: 'Most events to return, 1..100.',
        }),
      },
      resolve: (edge, args, ctx) => ctx.loaders.history(args.limit).load(edge.id),
    }),
    historyConnection: t.field({
      type: WeightEventConnectionRef,
      description:
        '`history`, a page at a time: newest first, then id descending, so the events of one write (one instant) keep a fixed order. A cursor serves only this edge. Changes written between pages never make a page skip or repeat an event that existed before them.',
      args: pageArgs(t.arg, 50),
      resolve: (edge, args, ctx) =>
        keysetPage(ctx, args, {
          field: 'Edge.historyConnection',
          scope: { edgeId: edge.id },
          // First pages of many edges share one batched read; a later page is this edge's own.
          read: (after, limit) =>
            after === null
              ? ctx.loaders.history(limit).load(edge.id)
              : ctx.store.listWeightEvents(ctx.workspace, {
                  edgeId: edge.id,
                  memoryId: null,
                  source: null,
                  after: fromEventPosition(after),
                  limit,
                }),
          positionOf: eventPosition,
        }),
    }),
  }),
});

builder.queryFields((t) => ({
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
      const edges = await ctx.store.edgesBetween(ctx.workspace, from, to, args.types ?? null);
      for (const edge of edges) ctx.loaders.edge.prime(edge.id, edge);
      return edges;
    },
  }),
}));

builder.mutationFields((t) => ({
  link: t.field({
    type: EdgeRef,
    description:
      'Creates the edge from -[type]-> to, or, when it exists, confirms it: lastConfirmedAt is set, metadata merged, and a given weight applied (MANUAL event). Never duplicates.',
    args: { input: t.arg({ type: LinkInput, required: true, description: 'The edge.' }) },
    resolve: (_root, { input }, ctx) =>
      afterWrite(ctx, writes.link(writeScope(ctx), { ...input, metadata: input.metadata as Json | null | undefined })),
  }),
  unlink: t.field({
    type: UnlinkPayloadRef,
    description:
      'Removes an edge, by id or by (from, to, type); removed is 0 when nothing matched. To weaken a relation without forgetting it, use weaken.',
    args: { input: t.arg({ type: UnlinkInput, required: true, description: 'Which edge.' }) },
    resolve: (_root, { input }, ctx) => afterWrite(ctx, writes.unlink(writeScope(ctx), input)),
  }),
}));
