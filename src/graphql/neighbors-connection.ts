import { badInput } from '../domain/errors.js';
import type { AdjacentEdge } from '../domain/types.js';
import { neighborFilterArgs, pageArgs } from './args.js';
import { builder } from './builder.js';
import { connectionTypes, keysetPage, type Position } from './connections.js';
import { MemoryRef, NeighborRef } from './refs.js';

const NeighborConnectionRef = connectionTypes<AdjacentEdge>('Neighbor', 'neighbours', NeighborRef);

/** A neighbour's place in Memory.neighbors' order: its edge's weight, then its edge id. */
function positionOf(after: Position): { weight: number; edgeId: string } {
  const [weight, edgeId] = after;
  if (typeof weight !== 'number' || typeof edgeId !== 'string')
    throw badInput('after', 'not a cursor this server gave out');
  return { weight, edgeId };
}

builder.objectFields(MemoryRef, (t) => ({
  neighborsConnection: t.field({
    type: NeighborConnectionRef,
    description:
      "Memory.neighbors a page at a time, in its order (strongest edge first, then edge id). A cursor holds its edge's weight and id: writes between pages never skip or repeat a neighbour whose edge existed, unchanged, before and after them (an edge re-weighted meanwhile moves to its new place). A cursor is refused by another memory, other filters or another workspace.",
    args: {
      ...pageArgs(t.arg, 20),
      ...neighborFilterArgs(t.arg),
    },
    resolve: (memory, args, ctx) => {
      const filters = {
        direction: args.direction,
        // One set of types, however the client spelt or ordered it, shares its cursors.
        types: args.types ? [...new Set(args.types)].sort() : null,
        minWeight: args.minWeight ?? null,
        includePruned: args.includePruned,
      };
      return keysetPage(ctx, args, {
        field: 'Memory.neighborsConnection',
        scope: { memory: memory.id, ...filters },
        read: (after, limit) =>
          ctx.loaders
            .adjacencyPage({
              ...filters,
              pruneThreshold: ctx.policy.pruneThreshold,
              after: after === null ? null : positionOf(after),
              limit,
            })
            .load(memory.id),
        positionOf: (entry) => [entry.edge.weight, entry.edge.id],
      });
    },
  }),
}));
