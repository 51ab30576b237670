import { nowIso } from '../domain/ids.js';
import * as rules from '../domain/inputs.js';
import { embeddingRule } from '../embeddings/write-embeddings.js';
import type { RecallOutcome } from '../services/recall/recall.js';
import { recall } from '../services/recall/recall.js';
import { pageArgs } from './args.js';
import { builder } from './builder.js';
import { connectionTypes, keysetPage } from './connections.js';
import type { EngramContext } from './context.js';
import { RecallRef } from './recall-types.js';

const RecallConnectionRef = connectionTypes<RecallOutcome>('Recall', 'stored recalls', RecallRef);

const logNotStored = (ctx: EngramContext) => (error: unknown, recallId: string) =>
  ctx.logger?.warn(
    { err: error, recallId, requestId: ctx.requestId },
    'recall record not stored; answered without an id',
  );

builder.queryFields((t) => ({
  recall: t.field({
    type: RecallRef,
    description:
      'Memories for a question: seeds from the full-text match of `query` (and the vector match, when configured) and the memories named in `seeds`, then spreading activation along unpruned edges (either direction), each hop multiplying by the edge weight and ENGRAM_RECALL_DECAY, summed over paths; each score is scaled by the weight of its memory (1 at the default weight). Changes no memory or edge; the recall is stored (ENGRAM_RECALL_TTL_SECONDS) for recallRecord and feedback by recallId (USED feedback also associates the memory with the best word matches of the recall: RECALLED_WITH edges). Give query, seeds or embedding (any of them together).',
    args: {
      query: t.arg.string({
        required: false,
        validate: rules.recallText,
        description: 'Words to look for (at most 500 characters); the hits are seeds.',
      }),
      seeds: t.arg.idList({
        required: false,
        validate: rules.refList,
        description: 'Memories to start from, by id or key (at most 100); NOT_FOUND when one is missing.',
      }),
      embedding: t.arg.floatList({
        required: false,
        validate: embeddingRule,
        description:
          'A query vector for the vector match, instead of embedding the query text; only when vectors are configured.',
      }),
      limit: t.arg.int({
        defaultValue: 10,
        required: true,
        validate: rules.limit,
        description: 'Most results, 1..100.',
      }),
      maxDepth: t.arg.int({
        defaultValue: 2,
        required: true,
        validate: rules.maxDepth,
        description: 'Most hops activation spreads from a seed, 1..5.',
      }),
      types: t.arg.stringList({
        required: false,
        validate: rules.relationTypes,
        description: 'Spread only along edges of these relation types (normalised to UPPER_SNAKE_CASE). Omit for all.',
      }),
      minWeight: t.arg.float({
        required: false,
        validate: rules.minWeight,
        description: 'Spread only along edges at least this heavy (0..1).',
      }),
      currentOnly: t.arg.boolean({
        defaultValue: false,
        required: true,
        description: 'Leave out superseded memories (those a SUPERSEDES edge points at); memories named in seeds stay.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      return recall(
        ctx,
        {
          query: args.query ?? null,
          seeds: args.seeds ?? null,
          embedding: args.embedding ?? null,
          limit: args.limit,
          maxDepth: args.maxDepth,
          types: args.types ?? null,
          minWeight: args.minWeight ?? null,
          currentOnly: args.currentOnly,
        },
        logNotStored(ctx),
      );
    },
  }),
  recallRecord: t.field({
    type: RecallRef,
    nullable: true,
    description: 'A stored recall by its id; null when it is unknown in this workspace or has expired.',
    args: { id: t.arg.id({ required: true, validate: rules.memoryRef, description: 'The recallId.' }) },
    resolve: async (_root, args, ctx) => {
      const record = await ctx.store.getRecall(ctx.workspace, args.id, nowIso());
      return record ? { record, stored: true } : null;
    },
  }),
  recalls: t.field({
    type: [RecallRef],
    description: 'Stored, unexpired recalls of this workspace, newest first.',
    args: {
      limit: t.arg.int({
        defaultValue: 20,
        required: true,
        validate: rules.limit,
        description: 'Most records, 1..100.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const records = await ctx.store.listRecalls(ctx.workspace, { limit: args.limit, now: nowIso() });
      return records.map((record) => ({ record, stored: true }));
    },
  }),
  recallsConnection: t.field({
    type: RecallConnectionRef,
    description:
      '`recalls`, a page at a time: newest first (createdAt, then id, descending). A record that expires between pages simply drops out; recalls made between pages never make a page skip or repeat a record that existed before them.',
    args: pageArgs(t.arg, 20),
    resolve: (_root, args, ctx) =>
      keysetPage(ctx, args, {
        field: 'Query.recallsConnection',
        scope: {},
        read: async (after, limit) => {
          const records = await ctx.store.listRecalls(ctx.workspace, {
            limit,
            now: nowIso(),
            after: after === null ? null : { createdAt: String(after[0]), id: String(after[1]) },
          });
          return records.map((record) => ({ record, stored: true }));
        },
        positionOf: ({ record }) => [record.createdAt, record.id],
      }),
  }),
}));
