import { validationsOf } from '../../services/convergence.js';
import { type EvidenceItemView, evidenceAfter, evidencePosition } from '../../services/evidence.js';
import { pageArgs } from '../args.js';
import { builder } from '../builder.js';
import { connectionTypes, keysetPage } from '../connections.js';
import { loadMemory } from '../load.js';
import { EdgeRef, MemoryRef } from '../refs.js';
import {
  ContextBundleRef,
  ContextItemRef,
  ContradictionRef,
  ConvergenceRef,
  EvidenceItemRef,
  EvidenceRef,
} from './refs.js';

export const ContradictionKindEnum = builder.enumType('ContradictionKind', {
  description: 'How two memories disagree.',
  values: {
    DIRECT: { description: 'a -CONTRADICTS-> b, or a -FAILS_TO_REPRODUCE-> b, with no supporting edge.' },
    MIXED: {
      description:
        'a both supports b (VALIDATES, REPLICATES or REPRODUCES) and contradicts it (CONTRADICTS or FAILS_TO_REPRODUCE) through different edges.',
    },
  } as const,
});

const ContextRoleEnum = builder.enumType('ContextRole', {
  description: 'Why a memory is in a context bundle. Bundles are ranked in this order.',
  values: {
    SEED: { description: 'One of the seeds asked for.' },
    NEWER_VERSION: {
      description: 'A version that supersedes a seed (directly or further along the SUPERSEDES chain).',
    },
    CONTRADICTING: { description: 'The other side of an open contradiction touching a seed.' },
    NEIGHBOR: { description: 'A memory joined to a seed by an edge.' },
  } as const,
});

const SCORE_FORMULA =
  "score = (S - C) / (1 + S + C), where S and C are the summed weights of the supporting and contradicting items and an item's weight is the product of the edge weights along its chain. Between -1 and 1; 0 without evidence or when both sides balance; one supporting item of weight 1 scores 0.5, three score 0.75.";

const EvidenceItemConnectionRef = connectionTypes<EvidenceItemView>('EvidenceItem', 'evidence items', EvidenceItemRef);

EvidenceRef.implement({
  description: `The evidence chain of a memory: what supports it, what contradicts it, and a support score. ${SCORE_FORMULA}`,
  fields: (t) => {
    const connection = (side: 'supporting' | 'contradicting') =>
      t.field({
        type: EvidenceItemConnectionRef,
        description: `\`${side}\` a page at a time, in its order, uncut by \`limit\`. The cursor holds the last item's (weight, chain length, memory id); each page walks the evidence again, bounded as the walk is (see truncated), and lists the items after that key.`,
        args: pageArgs(t.arg, 20),
        resolve: (evidence, args, ctx) =>
          keysetPage(ctx, args, {
            field: `Evidence.${side}Connection`,
            scope: { ...evidence.walk },
            read: async (after, limit) => evidenceAfter(evidence.all[side], after, limit),
            positionOf: evidencePosition,
          }),
      });
    return {
      supporting: t.field({
        type: [EvidenceItemRef],
        description:
          'Memories that support this one: by VALIDATES, REPLICATES or REPRODUCES, directly or through a chain of supporting, EXTENDS and FORMALIZES edges. Strongest first (item weight desc, then shorter chains, then memory id).',
        resolve: (evidence) => evidence.supporting,
      }),
      contradicting: t.field({
        type: [EvidenceItemRef],
        description:
          'Memories that contradict this one, or something in its supporting chain, by CONTRADICTS or FAILS_TO_REPRODUCE. Strongest first.',
        resolve: (evidence) => evidence.contradicting,
      }),
      // The pages live here rather than on Memory: Evidence holds two lists, each with its own order,
      // and a page of one sits beside the score and `truncated` of the same walk, whose filters
      // (minWeight, maxDepth) stay on Memory.evidence. Its `limit` cuts only the plain lists.
      supportingConnection: connection('supporting'),
      contradictingConnection: connection('contradicting'),
      score: t.exposeFloat('score', { description: `The support score. ${SCORE_FORMULA}` }),
      truncated: t.exposeBoolean('truncated', {
        description:
          "True when evidence may have been left out: a side had more items than `limit`, a memory of the chain had more than 200 evidence edges (the strongest 200 are read), or the request's work budget ran out. The score counts every item read.",
      }),
    };
  },
});

EvidenceItemRef.implement({
  description: 'One piece of evidence and the chain of edges by which it bears on the memory.',
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The evidence: the memory at the far end of the chain.',
      resolve: (item) => item.memory,
    }),
    via: t.field({
      type: [EdgeRef],
      description:
        'The chain in reading order: the first edge leaves the evidence memory (its VALIDATES, CONTRADICTS ... edge), the last one reaches the memory judged.',
      resolve: (item) => item.via,
    }),
    weight: t.exposeFloat('weight', {
      description: 'The product of the edge weights along `via`: indirect evidence counts for less.',
    }),
    relation: t.string({
      description:
        'The type of the judging edge, the first one of `via` (VALIDATES, REPLICATES, REPRODUCES, CONTRADICTS or FAILS_TO_REPRODUCE).',
      resolve: (item) => item.via[0]?.type ?? '',
    }),
  }),
});

ContradictionRef.implement({
  description: 'Two memories that disagree: a contradicts b, or a both supports and contradicts b.',
  fields: (t) => ({
    a: t.field({
      type: MemoryRef,
      description: 'The memory that contradicts (the source of the edges).',
      resolve: (found, _args, ctx) => loadMemory(ctx, found.aId),
    }),
    b: t.field({
      type: MemoryRef,
      description: 'The memory contradicted (the target of the edges).',
      resolve: (found, _args, ctx) => loadMemory(ctx, found.bId),
    }),
    edge: t.field({
      type: EdgeRef,
      nullable: true,
      description:
        'The strongest a -CONTRADICTS-> b edge, else (DIRECT) the strongest FAILS_TO_REPRODUCE edge; null for a MIXED pair that disagrees only through FAILS_TO_REPRODUCE.',
      resolve: (found) => found.edge,
    }),
    edges: t.field({
      type: [EdgeRef],
      description: 'Every supporting and contradicting edge from a to b, strongest first.',
      resolve: (found) => found.edges,
    }),
    kind: t.field({ type: ContradictionKindEnum, description: 'DIRECT or MIXED.', resolve: (found) => found.kind }),
    strength: t.exposeFloat('strength', {
      description:
        'DIRECT: the weight of edge. MIXED: the weaker of the strongest supporting and the strongest contradicting edge.',
    }),
    resolved: t.exposeBoolean('resolved', {
      description:
        'True when a or b is superseded (a newer memory -SUPERSEDES-> it): the disagreement is history. Open ones are listed first.',
    }),
  }),
});

ConvergenceRef.implement({
  description: 'A memory supported by several independent sources.',
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The memory validated.',
      resolve: (view, _args, ctx) => loadMemory(ctx, view.memoryId),
    }),
    support: t.exposeInt('support', {
      description:
        'Independent validations: distinct memories with an unpruned VALIDATES, REPLICATES or REPRODUCES edge to this one.',
    }),
    weight: t.exposeFloat('weight', {
      description: "Sum over those sources of each one's strongest supporting edge weight; breaks ties in support.",
    }),
    validations: t.field({
      type: [EdgeRef],
      description: 'The supporting edges counted, strongest first.',
      resolve: (view, _args, ctx) => validationsOf(ctx, view),
    }),
  }),
});

ContextBundleRef.implement({
  description:
    'What an agent should see about some memories, in one call: the seeds, versions that supersede them, the other side of open contradictions touching them, and their strongest neighbors, ranked in that order and cut to the budget. Everything in edges and contradictions joins memories of the bundle. After a successful step, pass the ids of the memories used to reinforceCoRetrieval.',
  fields: (t) => ({
    memories: t.field({
      type: [MemoryRef],
      description:
        'The memories of the bundle, best first (seeds, newer versions, contradicting, neighbors); at most `budget`.',
      resolve: (bundle) => bundle.items.map((item) => item.memory),
    }),
    items: t.field({
      type: [ContextItemRef],
      description: 'The same memories as `memories`, in the same order, each with why it is in the bundle.',
      resolve: (bundle) => bundle.items,
    }),
    edges: t.field({
      type: [EdgeRef],
      description: 'Edges found while building the bundle whose two ends are both in it, strongest first.',
      resolve: (bundle) => bundle.edges,
    }),
    contradictions: t.field({
      type: [ContradictionRef],
      description: 'Open (unresolved) contradictions touching a seed, strongest first.',
      resolve: (bundle) => bundle.contradictions,
    }),
    truncated: t.exposeBoolean('truncated', { description: 'True when the budget left memories out.' }),
  }),
});

ContextItemRef.implement({
  description: 'One memory of a context bundle and why it is there.',
  fields: (t) => ({
    memory: t.field({ type: MemoryRef, description: 'The memory.', resolve: (item) => item.memory }),
    role: t.field({ type: ContextRoleEnum, description: 'Why it is in the bundle.', resolve: (item) => item.role }),
    score: t.exposeFloat('score', {
      description:
        "What it was ranked by within its role: SEED its own weight; NEWER_VERSION the SUPERSEDES edge weight; CONTRADICTING the contradiction's strength; NEIGHBOR the sum of the weights of its edges to the seeds.",
    }),
    edges: t.field({
      type: [EdgeRef],
      description: 'The edges that brought it in (empty for seeds).',
      resolve: (item) => item.edges,
    }),
  }),
});
