import { DEFAULT_RECALL_SETTINGS } from '../config.js';
import { badInput } from '../domain/errors.js';
import * as rules from '../domain/inputs.js';
import type { AdjustmentSource, WeightEventRecord } from '../domain/types.js';
import { recallFeedback } from '../services/recall/recall-feedback.js';
import * as writes from '../services/writes.js';
import { requireMemory } from '../services/writes.js';
import type { WeightEventFilter, WeightEventPosition } from '../store/port.js';
import { edgeSelectorArgs, pageArgs, weightEventFilterArgs } from './args.js';
import { builder } from './builder.js';
import { connectionTypes, keysetPage, type Position } from './connections.js';
import { afterWrite, type EngramContext, writeScope } from './context.js';
import { AdjustmentSourceEnum, FeedbackSignalEnum } from './enums.js';
import { EdgeRef, MemoryRef, WeightChangeRef, WeightEventRef } from './refs.js';
import { DateTime } from './scalars.js';

WeightEventRef.implement({
  description: 'One change of an edge or memory weight. History is append-only: a revert is a new event.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable id of the event (UUIDv7); pass it to revertWeightEvent.' }),
    at: t.expose('at', { type: DateTime, description: 'When the change was committed (UTC).' }),
    source: t.field({
      type: AdjustmentSourceEnum,
      description: 'Who asked for the change.',
      resolve: (event) => event.source,
    }),
    edgeId: t.exposeID('edgeId', {
      nullable: true,
      description: 'Id of the edge changed, kept even after the edge is removed.',
    }),
    memoryId: t.exposeID('memoryId', {
      nullable: true,
      description: 'Id of the memory changed, kept even after the memory is removed.',
    }),
    edge: t.field({
      type: EdgeRef,
      nullable: true,
      description: 'The edge changed, for edge-weight events (null if it has been removed since).',
      resolve: (event, _args, ctx) => (event.edgeId === null ? null : ctx.loaders.edge.load(event.edgeId)),
    }),
    memory: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory changed, for memory-weight events (null if it has been removed since).',
      resolve: (event, _args, ctx) => (event.memoryId === null ? null : ctx.loaders.memory.load(event.memoryId)),
    }),
    old: t.exposeFloat('old', { description: 'Weight before the change.' }),
    new: t.exposeFloat('new', {
      description: 'Weight after the change (clamped to the configured floor and ceiling).',
    }),
    delta: t.exposeFloat('delta', { description: 'new - old: what the change really moved, after clamping.' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why, as given by the caller.' }),
    revertedBy: t.exposeID('revertedBy', {
      nullable: true,
      description: 'Id of the event that reverted this one, if any.',
    }),
  }),
});

WeightChangeRef.implement({
  description: 'The result of one weight change, with the event it wrote.',
  fields: (t) => ({
    previousWeight: t.exposeFloat('previousWeight', { description: 'Weight before the change.' }),
    newWeight: t.exposeFloat('newWeight', { description: 'Weight after the change.' }),
    pruned: t.exposeBoolean('pruned', {
      description: 'For edges: whether the edge is now pruned (hidden from walks). Always false for memories.',
    }),
    edge: t.field({
      type: EdgeRef,
      nullable: true,
      description: 'The edge changed, as it is now (null for memory changes).',
      resolve: (change) => change.edge,
    }),
    memory: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory changed, as it is now (null for edge changes).',
      resolve: (change) => change.memory,
    }),
    event: t.field({
      type: WeightEventRef,
      description: 'The WeightEvent written in the same transaction.',
      resolve: (change) => change.event,
    }),
  }),
});

/** The filters as the store applies them: a memory named by key becomes its id, so both share cursors. */
async function weightEventFilter(
  ctx: EngramContext,
  args: { edgeId?: string | null; memoryId?: string | null; source?: AdjustmentSource | null },
) {
  const memoryId = args.memoryId == null ? null : (await requireMemory(writeScope(ctx), args.memoryId, 'memoryId')).id;
  return { edgeId: args.edgeId ?? null, memoryId, source: args.source ?? null };
}

/**
 * The store's events for a filter. An event changes one edge or one memory, never both, so an edge
 * and a memory together match nothing: the store is not asked, since it would walk every event of
 * one of them (each feedback adds one) to find none.
 */
const readWeightEvents = async (ctx: EngramContext, filter: WeightEventFilter): Promise<WeightEventRecord[]> =>
  filter.edgeId !== null && filter.memoryId !== null ? [] : ctx.store.listWeightEvents(ctx.workspace, filter);

export const WeightEventConnectionRef = connectionTypes<WeightEventRecord>(
  'WeightEvent',
  'weight events',
  WeightEventRef,
);

/** An event's place in the newest-first order (at desc, id desc), as its cursor holds it. */
export const eventPosition = (event: WeightEventRecord): Position => [event.at, event.id];

/** A cursor's position as the store takes it. */
export const fromEventPosition = (after: Position | null): WeightEventPosition | null =>
  after === null ? null : { at: String(after[0]), id: String(after[1]) };

builder.queryFields((t) => ({
  weightEvents: t.field({
    type: [WeightEventRef],
    description:
      'Weight changes, newest first, optionally only those of one edge, one memory, or one source. An event changes one edge or one memory, so an edgeId and a memoryId together match nothing.',
    args: {
      ...weightEventFilterArgs(t.arg),
      limit: t.arg.int({
        defaultValue: 50,
        required: true,
        validate: rules.limit,
        description: 'Most events to return, 1..100.',
      }),
    },
    resolve: async (_root, args, ctx) =>
      readWeightEvents(ctx, { ...(await weightEventFilter(ctx, args)), limit: args.limit }),
  }),
  weightEventsConnection: t.field({
    type: WeightEventConnectionRef,
    description:
      '`weightEvents`, a page at a time, with the same filters: newest first, then id descending, so the events of one write (one instant) keep a fixed order. A cursor serves only the filters it came from. Events written between pages never make a page skip or repeat one that existed before them.',
    args: { ...weightEventFilterArgs(t.arg), ...pageArgs(t.arg, 50) },
    resolve: async (_root, args, ctx) => {
      const filter = await weightEventFilter(ctx, args);
      return keysetPage(ctx, args, {
        field: 'Query.weightEventsConnection',
        scope: filter,
        read: (after, limit) => readWeightEvents(ctx, { ...filter, after: fromEventPosition(after), limit }),
        positionOf: eventPosition,
      });
    },
  }),
}));

builder.mutationFields((t) => ({
  weaken: t.field({
    type: WeightChangeRef,
    description:
      'Lowers the weight of an existing edge, named by edgeId or by from -[type]-> to, by `amount` (clamped at the floor), e.g. after a user corrected a recalled fact. At or below 0.05 the edge is pruned (hidden, not deleted). NOT_FOUND if the edge does not exist: weaken never creates edges. BAD_USER_INPUT unless exactly one of edgeId or the whole triple is given.',
    args: {
      ...edgeSelectorArgs(t.arg),
      amount: t.arg.float({
        defaultValue: 0.3,
        required: true,
        validate: rules.amount,
        description: 'How much to subtract, in (0, 1]. Default 0.3.',
      }),
      reason: t.arg.string({
        required: false,
        validate: rules.reason,
        description: 'Why; recorded on the WeightEvent.',
      }),
      source: t.arg({
        type: AdjustmentSourceEnum,
        defaultValue: 'CONSCIOUS',
        required: true,
        description: 'Who asks; recorded on the WeightEvent.',
      }),
    },
    resolve: (_root, args, ctx) => afterWrite(ctx, writes.nudgeEdge(writeScope(ctx), args, -1, args.amount)),
  }),
  strengthen: t.field({
    type: WeightChangeRef,
    description:
      "Raises the weight of an existing edge, named by edgeId or by from -[type]-> to (clamped at the ceiling); revives a pruned edge once above 0.05. Without amount, the source tier's step is used (AGENT 0.00001, CONSCIOUS 0.01, MANUAL 0.1 by default). NOT_FOUND if the edge does not exist.",
    args: {
      ...edgeSelectorArgs(t.arg),
      amount: t.arg.float({
        required: false,
        validate: rules.amount,
        description: "How much to add, in (0, 1]. Default: the source tier's step.",
      }),
      reason: t.arg.string({
        required: false,
        validate: rules.reason,
        description: 'Why; recorded on the WeightEvent.',
      }),
      source: t.arg({
        type: AdjustmentSourceEnum,
        defaultValue: 'CONSCIOUS',
        required: true,
        description: 'Who asks; picks the default step.',
      }),
    },
    resolve: (_root, args, ctx) =>
      afterWrite(ctx, writes.nudgeEdge(writeScope(ctx), args, 1, ctx.policy.tierDelta[args.source])),
  }),
  setEdgeWeight: t.field({
    type: WeightChangeRef,
    description:
      'Sets an edge weight directly (MANUAL tier), writing a WeightEvent. NOT_FOUND if the edge does not exist.',
    args: {
      id: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The edge id.' }),
      weight: t.arg.float({ required: true, validate: rules.weight, description: 'The new weight, 0..1.' }),
      reason: t.arg.string({
        required: false,
        validate: rules.reason,
        description: 'Why; recorded on the WeightEvent.',
      }),
    },
    resolve: (_root, args, ctx) =>
      afterWrite(ctx, writes.setEdgeWeight(writeScope(ctx), args.id, args.weight, args.reason ?? null)),
  }),
  feedback: t.field({
    type: [WeightChangeRef],
    description:
      "Feedback on a recalled memory. USED strengthens the memory and the edges in `via` (or the recorded path of `recallId`; without either, all its unpruned edges); NOT_RELEVANT weakens those edges; NOT_USEFUL weakens only the memory's own weight. Steps are the source tier's delta; all changes commit together.",
    args: {
      memoryId: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The memory, by id or key.' }),
      signal: t.arg({ type: FeedbackSignalEnum, required: true, description: 'What happened.' }),
      via: t.arg.idList({
        required: false,
        validate: rules.edgeIdList,
        description:
          'Ids of the edges that led to the memory (at most 100); each must touch it (BAD_USER_INPUT otherwise).',
      }),
      recallId: t.arg.id({
        required: false,
        validate: rules.memoryRef,
        description:
          "The recall the memory came from: the edges changed are that result's recorded activation path (not via; giving both is BAD_USER_INPUT). NOT_FOUND when the recall is unknown or expired; BAD_USER_INPUT when the memory is not among its results, or for NOT_RELEVANT on a seed (no path; use NOT_USEFUL).",
      }),
      reason: t.arg.string({
        required: false,
        validate: rules.reason,
        description: 'Why; recorded on every WeightEvent.',
      }),
      source: t.arg({
        type: AdjustmentSourceEnum,
        defaultValue: 'CONSCIOUS',
        required: true,
        description: 'Who gives the feedback; picks the step.',
      }),
    },
    resolve: (_root, { recallId, ...args }, ctx) => {
      if (recallId == null) return afterWrite(ctx, writes.feedback(writeScope(ctx), args));
      if (args.via != null) throw badInput('via', 'give via or recallId, not both (a recall names its own path)');
      return afterWrite(
        ctx,
        recallFeedback(writeScope(ctx), { ...args, recallId }, ctx.recall ?? DEFAULT_RECALL_SETTINGS),
      );
    },
  }),
  revertWeightEvent: t.field({
    type: WeightChangeRef,
    description:
      'Restores the weight a WeightEvent replaced, as a new MANUAL event, and marks the old one revertedBy. NOT_FOUND if the event or its target is gone; CONFLICT if it was already reverted.',
    args: { id: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The WeightEvent id.' }) },
    resolve: (_root, args, ctx) => afterWrite(ctx, writes.revertWeightEvent(writeScope(ctx), args.id)),
  }),
}));
