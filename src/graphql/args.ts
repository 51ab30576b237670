import { z } from 'zod';
import * as rules from '../domain/inputs.js';
import { AdjustmentSourceEnum, DirectionEnum } from './enums.js';

type ArgBuilder = Parameters<Parameters<typeof import('./builder.js').builder.queryFields>[0]>[0]['arg'];

/** Arguments shared by several fields, so a rule and its wording are written once. */
/** The `first` and `after` arguments of a connection field (API.md, "Pages"). */
export const pageArgs = (arg: ArgBuilder, defaultFirst: number) => ({
  first: arg.int({
    defaultValue: defaultFirst,
    required: true,
    validate: rules.pageSize,
    description: `Page size, 1..100 (default ${defaultFirst}).`,
  }),
  after: arg.string({ required: false, description: "The previous page's endCursor." }),
});

export const sharedArgs = (arg: ArgBuilder) => ({
  direction: arg({
    type: DirectionEnum,
    defaultValue: 'BOTH',
    required: true,
    description: 'Which edges to follow: OUTGOING, INCOMING, or BOTH (direction ignored).',
  }),
  types: arg.stringList({
    required: false,
    validate: rules.relationTypes,
    description:
      'Only edges of these relation types (normalised to UPPER_SNAKE_CASE, e.g. caused_by -> CAUSED_BY). Omit for all types.',
  }),
  limit: arg.int({
    defaultValue: 20,
    required: true,
    validate: rules.limit,
    description: 'Most results to return, 1..100.',
  }),
  maxHops: arg.int({
    defaultValue: 4,
    required: true,
    validate: rules.maxHops,
    description: 'Longest path to look for, in edges, 1..10.',
  }),
  currentOnly: arg.boolean({
    defaultValue: false,
    required: true,
    description:
      'Skip superseded memories (those a SUPERSEDES edge points at) along the way; the memories the walk starts or ends at are always allowed.',
  }),
  maxDepth: arg.int({
    defaultValue: 3,
    required: true,
    validate: rules.maxDepth,
    description: 'How many edges deep to walk, 1..5.',
  }),
});

/** The edge a weight nudge (weaken, strengthen) acts on: edgeId, or the whole from -[type]-> to triple. */
export const edgeSelectorArgs = (arg: ArgBuilder) => ({
  from: arg.id({
    required: false,
    validate: rules.memoryRef,
    description: 'Source memory, by id or key (with to and type; or give edgeId instead).',
  }),
  to: arg.id({
    required: false,
    validate: rules.memoryRef,
    description: 'Target memory, by id or key (with from and type).',
  }),
  type: arg.string({
    required: false,
    validate: rules.relationType,
    description: 'Relation type (normalised to UPPER_SNAKE_CASE), with from and to.',
  }),
  edgeId: arg.id({
    required: false,
    validate: rules.memoryRef,
    description: 'The edge id, instead of from, to and type.',
  }),
});

/** The filters of searchMemories and searchMemoriesConnection. */
export const searchFilterArgs = (arg: ArgBuilder) => ({
  query: arg.string({
    required: true,
    validate: rules.searchText,
    description: 'Words to look for (at most 500 characters); empty to list by kinds or tags.',
  }),
  kinds: arg.stringList({
    required: false,
    validate: z.array(rules.kind).max(64),
    description: 'Only memories of these kinds.',
  }),
  tags: arg.stringList({
    required: false,
    validate: rules.tags,
    description: 'Only memories carrying at least one of these tags.',
  }),
  currentOnly: arg.boolean({
    defaultValue: false,
    required: true,
    description:
      'Leave out superseded memories (those an unpruned SUPERSEDES edge points at); the answer is still filled from current ones.',
  }),
});

/** A search needs words, kinds or tags. */
export const searchFilterRule = z
  // passthrough: the parsed object replaces the arguments, and the others must survive it.
  .object({ query: z.string(), kinds: z.array(z.string()).nullish(), tags: z.array(z.string()).nullish() })
  .passthrough()
  .refine((args) => args.query.trim() !== '' || Boolean(args.kinds?.length) || Boolean(args.tags?.length), {
    message: 'must not be empty unless kinds or tags are given',
    path: ['query'],
  });

/** The filters of `weightEvents` and `weightEventsConnection`. */
export const weightEventFilterArgs = (arg: ArgBuilder) => ({
  edgeId: arg.id({ required: false, validate: rules.memoryRef, description: 'Only events of this edge.' }),
  memoryId: arg.id({
    required: false,
    validate: rules.memoryRef,
    description: 'Only events of this memory (by id or key).',
  }),
  source: arg({ type: AdjustmentSourceEnum, required: false, description: 'Only events from this source.' }),
});

/** The filters of Memory.neighbors and Memory.neighborsConnection. */
export const neighborFilterArgs = (arg: ArgBuilder) => ({
  direction: sharedArgs(arg).direction,
  types: sharedArgs(arg).types,
  minWeight: arg.float({
    required: false,
    validate: rules.minWeight,
    description: 'Only edges with at least this weight (0..1).',
  }),
  includePruned: arg.boolean({
    defaultValue: false,
    required: true,
    description: 'Include pruned edges (weight at or below the prune threshold, 0.05 by default).',
  }),
});
