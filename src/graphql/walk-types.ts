import * as rules from '../domain/inputs.js';
import { sharedArgs } from './args.js';
import { builder } from './builder.js';
import { loadEdge, loadMemory } from './load.js';
import { EdgeRef, MemoryRef, PathResultRef, PathStepRef, TraversalHitRef } from './refs.js';
import { resolvePath } from './walk-resolvers.js';

PathResultRef.implement({
  description: 'The answer to a path question. Among equally short paths, the same one is picked every time.',
  fields: (t) => ({
    found: t.exposeBoolean('found', {
      description: 'Whether a path exists within maxHops (over unpruned edges of the allowed types).',
    }),
    hops: t.int({
      description: 'Edges in the path; 0 when from and to are the same memory (and when not found).',
      resolve: (path) => path.edgeIds.length,
    }),
    steps: t.field({
      type: [PathStepRef],
      description:
        'The memories along the path from start to end, each with the edge to the next one; empty when not found.',
      resolve: (path) =>
        path.memoryIds.map((memoryId, index) => ({ memoryId, edgeToNextId: path.edgeIds[index] ?? null })),
    }),
    message: t.exposeString('message', {
      nullable: true,
      description: 'Set when not found: "No path from <a> to <b> within <n> hops".',
    }),
  }),
});

PathStepRef.implement({
  description: 'One memory on a path.',
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The memory at this step.',
      resolve: (step, _args, ctx) => loadMemory(ctx, step.memoryId),
    }),
    edgeToNext: t.field({
      type: EdgeRef,
      nullable: true,
      description:
        'The edge walked to the next step (it may point either way when direction is BOTH); null on the last step.',
      resolve: (step, _args, ctx) => (step.edgeToNextId === null ? null : loadEdge(ctx, step.edgeToNextId)),
    }),
  }),
});

TraversalHitRef.implement({
  description: 'A memory reached by a traversal.',
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The memory reached.',
      resolve: (hit, _args, ctx) => loadMemory(ctx, hit.memoryId),
    }),
    depth: t.exposeInt('depth', { description: 'How many edges from the start (1 = a direct neighbor).' }),
    via: t.field({
      type: [EdgeRef],
      description: 'The edges walked from the start to this memory, in order.',
      resolve: (hit, _args, ctx) => Promise.all(hit.via.map((id) => loadEdge(ctx, id))),
    }),
  }),
});

builder.queryFields((t) => ({
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
}));
