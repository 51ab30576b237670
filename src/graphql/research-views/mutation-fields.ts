import { badInput } from '../../domain/errors.js';
import * as rules from '../../domain/inputs.js';
import { isLoaded } from '../../loaders/index.js';
import { reinforceCoRetrieval } from '../../services/co-retrieval.js';
import { recallReason, requireRecall } from '../../services/recall/recall-feedback.js';
import { builder } from '../builder.js';
import { type EngramContext, writeScope } from '../context.js';
import { AdjustmentSourceEnum } from '../enums.js';
import { WeightChangeRef } from '../refs.js';

/** The memories of a recall's results that still exist: one deleted since is no reason to refuse the rest. */
async function recalledMemories(ctx: EngramContext, recallId: string): Promise<string[]> {
  const record = await requireRecall(writeScope(ctx), recallId);
  const memories = await ctx.loaders.memory.loadMany(record.results.map((result) => result.memoryId));
  return record.results.filter((_, index) => isLoaded(memories[index])).map((result) => result.memoryId);
}

builder.mutationField('reinforceCoRetrieval', (t) =>
  t.field({
    type: [WeightChangeRef],
    description:
      "Memories used together in one successful agent step: strengthens every existing unpruned edge among them (either direction, any type) by the source tier's step (AGENT: 0.00001 by default). Never creates edges; all changes commit in one transaction, each with its WeightEvent. Pass the ids of searchMemories or context results that were used. Fewer than two distinct memories, or no edges among them, change nothing.",
    args: {
      ids: t.arg.idList({
        required: false,
        validate: rules.refList,
        description: 'The memories used together, by id or key (at most 100). Give ids or recallId.',
      }),
      recallId: t.arg.id({
        required: false,
        validate: rules.memoryRef,
        description:
          'Instead of ids: the results of this recall were used together. NOT_FOUND when it is unknown or expired.',
      }),
      reason: t.arg.string({
        required: false,
        validate: rules.reason,
        description: 'Why; recorded on every WeightEvent.',
      }),
      source: t.arg({
        type: AdjustmentSourceEnum,
        defaultValue: 'AGENT',
        required: true,
        description: 'Who reports the co-retrieval; picks the step.',
      }),
    },
    resolve: async (_root, { ids, recallId, ...args }, ctx) => {
      if ((ids == null) === (recallId == null)) throw badInput('ids', 'give exactly one of ids and recallId');
      const scope = writeScope(ctx);
      const used = ids ?? (await recalledMemories(ctx, recallId as string));
      const reason = recallId == null ? args.reason : recallReason(recallId, args.reason);
      const changes = await reinforceCoRetrieval(scope, { ...args, ids: used, reason });
      ctx.loaders.invalidate();
      return changes;
    },
  }),
);
