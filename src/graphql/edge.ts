import { limit as limitRule } from '../domain/inputs.js';
import { isPruned } from '../domain/weights.js';
import { loadMemory } from './load.js';
import { EdgeRef, MemoryRef, WeightEventRef } from './refs.js';
import { DateTime, JSONScalar } from './scalars.js';

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
  }),
});
