import * as rules from '../domain/inputs.js';
import { reinforceCoRetrieval } from '../services/co-retrieval.js';
import { builder } from './builder.js';
import { writeScope } from './context.js';
import { AdjustmentSourceEnum } from './enums.js';
import { WeightChangeRef } from './refs.js';

builder.mutationField('reinforceCoRetrieval', (t) =>
  t.field({
    type: [WeightChangeRef],
    description:
      "Memories used together in one successful agent step: strengthens every existing unpruned edge among them (either direction, any type) by the source tier's step (AGENT: 0.00001 by default). Never creates edges; all changes commit in one transaction, each with its WeightEvent. Pass the ids of searchMemories or context results that were used. Fewer than two distinct memories, or no edges among them, change nothing.",
    args: {
      ids: t.arg.idList({
        required: true,
        validate: rules.refList,
        description: 'The memories used together, by id or key (at most 100).',
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
    resolve: async (_root, args, ctx) => {
      const changes = await reinforceCoRetrieval(writeScope(ctx), args);
      ctx.loaders.invalidate();
      return changes;
    },
  }),
);
