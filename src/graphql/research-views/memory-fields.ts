import { limit as limitRule, maxDepth as maxDepthRule, minWeight as minWeightRule } from '../../domain/inputs.js';
import { evidenceFor } from '../../services/evidence.js';
import { currentVersion, newerVersions, olderVersions } from '../../services/supersession.js';
import { builder } from '../builder.js';
import { MemoryRef } from '../refs.js';
import { EvidenceRef } from './refs.js';

builder.objectFields(MemoryRef, (t) => ({
  evidence: t.field({
    type: EvidenceRef,
    description:
      'The evidence chain of this memory: memories that support it (VALIDATES, REPLICATES, REPRODUCES, also through EXTENDS and FORMALIZES chains) and contradict it (CONTRADICTS, FAILS_TO_REPRODUCE), each with its path, and a support score (see Evidence.score). Walked against edge direction, one store call per depth level, skipping pruned edges.',
    args: {
      minWeight: t.arg.float({
        required: false,
        validate: minWeightRule,
        description: 'Only follow edges with at least this weight (0..1).',
      }),
      maxDepth: t.arg.int({
        defaultValue: 3,
        required: true,
        validate: maxDepthRule,
        description: 'Longest evidence chain to follow, in edges, 1..5.',
      }),
      limit: t.arg.int({
        defaultValue: 50,
        required: true,
        validate: limitRule,
        description:
          'Most items returned on each side (supporting, contradicting), 1..100, strongest first; the score counts all the evidence read.',
      }),
    },
    resolve: (memory, args, ctx) =>
      evidenceFor(ctx, memory.id, { minWeight: args.minWeight ?? null, maxDepth: args.maxDepth, limit: args.limit }),
  }),
  supersedes: t.field({
    type: [MemoryRef],
    description: 'Older versions this memory replaces directly (this -SUPERSEDES-> older), strongest edge first.',
    resolve: async (memory, _args, ctx) =>
      ((await olderVersions(ctx, [memory.id]))[0] ?? []).map((entry) => entry.neighbor),
  }),
  supersededBy: t.field({
    type: [MemoryRef],
    description:
      'Newer versions that replace this memory directly (newer -SUPERSEDES-> this), strongest edge first. Empty when this memory is current.',
    resolve: async (memory, _args, ctx) =>
      ((await newerVersions(ctx, [memory.id]))[0] ?? []).map((entry) => entry.neighbor),
  }),
  current: t.field({
    type: MemoryRef,
    description:
      'The newest version of this memory: incoming SUPERSEDES edges are followed until nothing supersedes the memory reached (at a fork the strongest edge wins; at most 50 steps). The memory itself when nothing supersedes it.',
    resolve: async (memory, _args, ctx) => (await currentVersion(ctx, memory)).memory,
  }),
}));
