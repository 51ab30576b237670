import { memoryNotFound } from '../../domain/errors.js';
import * as rules from '../../domain/inputs.js';
import { budget, eventWindow, minFlips, minSupport, seeds } from '../../domain/research-view-inputs.js';
import { buildContext } from '../../services/context-bundle.js';
import {
  CONTRADICTION_KINDS,
  type ContradictionFilter,
  type ContradictionKind,
  type ContradictionView,
  contradictionPosition,
  contradictionsAfter,
  listContradictions,
} from '../../services/contradictions.js';
import {
  type ConvergenceView,
  convergenceAfter,
  convergencePosition,
  rankConvergence,
} from '../../services/convergence.js';
import { findOscillatingEdges } from '../../services/oscillation.js';
import { pageArgs, sharedArgs } from '../args.js';
import { builder } from '../builder.js';
import { connectionTypes, keysetPage } from '../connections.js';
import { EdgeRef } from '../refs.js';
import { ContextBundleRef, ContradictionRef, ConvergenceRef } from './refs.js';
import { ContradictionKindEnum } from './types.js';

type ArgBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg'];

/** The filters of contradictions, shared by the list and its connection. */
const contradictionArgs = (arg: ArgBuilder) => ({
  minWeight: arg.float({
    required: false,
    validate: rules.minWeight,
    description: 'Ignore edges lighter than this (0..1).',
  }),
  kinds: arg({
    type: [ContradictionKindEnum],
    required: false,
    description: 'Only contradictions of these kinds. Omit for all.',
  }),
});

/** Normalised (kinds in one fixed order, absent as all), so equal lists share cursors. */
const contradictionFilter = (args: {
  minWeight?: number | null;
  kinds?: readonly ContradictionKind[] | null;
}): ContradictionFilter => ({
  minWeight: args.minWeight ?? null,
  kinds: CONTRADICTION_KINDS.filter((kind) => (args.kinds ?? CONTRADICTION_KINDS).includes(kind)),
});

/** The filters of convergence, shared by the list and its connection. */
const convergenceArgs = (arg: ArgBuilder) => ({
  minSupport: arg.int({
    defaultValue: 2,
    required: true,
    validate: minSupport,
    description: 'Fewest distinct supporting memories, 1..10000.',
  }),
  minWeight: arg.float({
    required: false,
    validate: rules.minWeight,
    description: 'Only count supporting edges with at least this weight (0..1).',
  }),
});

const ContradictionConnectionRef = connectionTypes<ContradictionView>(
  'Contradiction',
  'contradictions',
  ContradictionRef,
);
const ConvergenceConnectionRef = connectionTypes<ConvergenceView>('Convergence', 'convergence entries', ConvergenceRef);

builder.queryFields((t) => ({
  contradictions: t.field({
    type: [ContradictionRef],
    description:
      'Pairs of memories that disagree: a -CONTRADICTS-> b or a lone a -FAILS_TO_REPRODUCE-> b (DIRECT), or a both supports and contradicts b through different edges (MIXED). Unresolved ones (neither side superseded) first, then strongest first. Pruned edges are ignored.',
    args: { limit: sharedArgs(t.arg).limit, ...contradictionArgs(t.arg) },
    resolve: (_root, args, ctx) => listContradictions(ctx, { limit: args.limit, ...contradictionFilter(args) }),
  }),
  contradictionsConnection: t.field({
    type: ContradictionConnectionRef,
    description:
      "Query.contradictions a page at a time, in its order (unresolved first, then strongest first, then the ids of a and b). The cursor holds the last pair's (resolved, strength, a id, b id). With kinds [DIRECT] a page reads contradicting edges from the cursor's strength down; with MIXED asked for, every page reads them from the strongest down (a MIXED pair's strength can be lighter than its contradicting edges). A page reads at most the walk budget of edges, and past it lists what it read, as the plain field does.",
    args: { ...pageArgs(t.arg, 20), ...contradictionArgs(t.arg) },
    resolve: (_root, args, ctx) => {
      const filter = contradictionFilter(args);
      return keysetPage(ctx, args, {
        field: 'Query.contradictionsConnection',
        scope: { ...filter },
        read: (after, limit) => contradictionsAfter(ctx, filter, after, limit),
        positionOf: contradictionPosition,
      });
    },
  }),
  convergence: t.field({
    type: [ConvergenceRef],
    description:
      'Memories with at least minSupport independent validations (distinct memories with a VALIDATES, REPLICATES or REPRODUCES edge to them), best supported first: more sources, then more summed weight, then id.',
    args: { ...convergenceArgs(t.arg), limit: sharedArgs(t.arg).limit },
    resolve: (_root, args, ctx) =>
      rankConvergence(ctx, { minSupport: args.minSupport, limit: args.limit, minWeight: args.minWeight ?? null }),
  }),
  convergenceConnection: t.field({
    type: ConvergenceConnectionRef,
    description:
      "Query.convergence a page at a time, in its order (more sources, then more summed weight, then memory id). The cursor holds the last entry's (sources, weight, memory id) and the store ranks after it, so a page returns only its own entries; the ranking itself still adds up every supporting edge of the workspace on each page.",
    args: { ...pageArgs(t.arg, 20), ...convergenceArgs(t.arg) },
    resolve: (_root, args, ctx) => {
      const filter = { minSupport: args.minSupport, minWeight: args.minWeight ?? null };
      return keysetPage(ctx, args, {
        field: 'Query.convergenceConnection',
        scope: filter,
        read: (after, limit) => convergenceAfter(ctx, filter, after, limit),
        positionOf: convergencePosition,
      });
    },
  }),
  context: t.field({
    type: ContextBundleRef,
    description:
      'A context bundle for an agent: the seeds, versions that supersede them, the other side of open contradictions touching them, and their strongest neighbors, ranked in that order and cut to the budget. Store work is a fixed handful of batched reads however many seeds are given.',
    args: {
      seeds: t.arg.idList({
        required: true,
        validate: seeds,
        description: 'The memories to build the context around, by id or key (1..100).',
      }),
      budget: t.arg.int({
        defaultValue: 20,
        required: true,
        validate: budget,
        description: 'Most memories in the bundle, 1..100.',
      }),
      types: sharedArgs(t.arg).types,
      minWeight: t.arg.float({
        required: false,
        validate: rules.minWeight,
        description: 'Ignore neighbor and contradiction edges lighter than this (0..1).',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const found = await Promise.all(args.seeds.map((ref) => ctx.loaders.memory.load(ref)));
      const missing = args.seeds.find((_, index) => found[index] === null);
      if (missing !== undefined) throw memoryNotFound('seeds', missing);
      const memories = found.filter((memory) => memory !== null);
      // Seeds named by key are cached under the key; edges and contradictions name them by id.
      for (const memory of memories) ctx.loaders.memory.prime(memory.id, memory);
      return buildContext(ctx, memories, {
        budget: args.budget,
        types: args.types ?? null,
        minWeight: args.minWeight ?? null,
      });
    },
  }),
  oscillatingEdges: t.field({
    type: [EdgeRef],
    description:
      "Edges whose weight was pulled both ways repeatedly: the feedback disagrees about them. Counts flips (changes of direction between consecutive weight changes) in the workspace's newest `window` WeightEvents; most flips first, then most recently changed. Read `history` to see who pulled which way.",
    args: {
      minFlips: t.arg.int({
        defaultValue: 3,
        required: true,
        validate: minFlips,
        description: 'Fewest changes of direction, 1..1000 (+ - + - is 3).',
      }),
      limit: sharedArgs(t.arg).limit,
      window: t.arg.int({
        defaultValue: 1000,
        required: true,
        validate: eventWindow,
        description: "How many of the workspace's newest WeightEvents to examine, 1..10000.",
      }),
    },
    resolve: (_root, args, ctx) =>
      findOscillatingEdges(ctx, { minFlips: args.minFlips, limit: args.limit, window: args.window }),
  }),
}));
