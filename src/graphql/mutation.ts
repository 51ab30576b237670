import { DEFAULT_RECALL_SETTINGS } from '../config.js';
import { badInput } from '../domain/errors.js';
import * as rules from '../domain/inputs.js';
import type { Json, MemoryPatch } from '../domain/types.js';
import { recallFeedback } from '../services/recall/recall-feedback.js';
import * as writes from '../services/writes.js';
import { edgeSelectorArgs } from './args.js';
import { builder } from './builder.js';
import { type EngramContext, writeScope } from './context.js';
import { AdjustmentSourceEnum, FeedbackSignalEnum } from './enums.js';
import { CreateMemoryInput, LinkInput, UnlinkInput, UpdateMemoryInput } from './inputs.js';
import { DeletePayloadRef, EdgeRef, MemoryRef, UnlinkPayloadRef, WeightChangeRef } from './refs.js';

/** After a write, cached reads of this request are stale: drop them so the response shows the new state. */
async function afterWrite<T>(ctx: EngramContext, write: Promise<T>): Promise<T> {
  const result = await write;
  ctx.loaders.invalidate();
  return result;
}

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

builder.mutationType({
  description: 'Writes. Each mutation is one transaction: it changes everything it says, or nothing.',
  // Type-level: every Mutation field, including those added elsewhere with builder.mutationField,
  // needs the write scope, so a read-only API key gets FORBIDDEN before any resolver runs.
  authScopes: { write: true },
  fields: (t) => ({
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
        afterWrite(
          ctx,
          writes.updateMemory(writeScope(ctx), args.id, toPatch(args.input), args.input.embedding ?? null),
        ),
    }),
    deleteMemory: t.field({
      type: DeletePayloadRef,
      description:
        'Deletes a memory and every edge touching it. Its weight history is kept. NOT_FOUND when it does not exist.',
      args: { id: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The memory, by id or key.' }) },
      resolve: (_root, args, ctx) => afterWrite(ctx, writes.deleteMemory(writeScope(ctx), args.id)),
    }),
    link: t.field({
      type: EdgeRef,
      description:
        'Creates the edge from -[type]-> to, or, when it exists, confirms it: lastConfirmedAt is set, metadata merged, and a given weight applied (MANUAL event). Never duplicates.',
      args: { input: t.arg({ type: LinkInput, required: true, description: 'The edge.' }) },
      resolve: (_root, { input }, ctx) =>
        afterWrite(
          ctx,
          writes.link(writeScope(ctx), { ...input, metadata: input.metadata as Json | null | undefined }),
        ),
    }),
    unlink: t.field({
      type: UnlinkPayloadRef,
      description:
        'Removes an edge, by id or by (from, to, type); removed is 0 when nothing matched. To weaken a relation without forgetting it, use weaken.',
      args: { input: t.arg({ type: UnlinkInput, required: true, description: 'Which edge.' }) },
      resolve: (_root, { input }, ctx) => afterWrite(ctx, writes.unlink(writeScope(ctx), input)),
    }),
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
  }),
});
