import { isLoaded } from '../loaders/index.js';
import type { RecallOutcome } from '../services/recall/recall.js';
import type { RecallAssociation, RecalledCue, RecalledResult } from '../store/port.js';
import { builder } from './builder.js';
import { RecallAssociationKindEnum } from './enums.js';
import { loadMemory } from './load.js';
import { EdgeRef, MemoryRef } from './refs.js';
import { DateTime } from './scalars.js';

const RecalledMemoryRef = builder.objectRef<RecalledResult>('RecalledMemory');
const RecallAssociationRef = builder.objectRef<RecallAssociation>('RecallAssociation');
const RecallCueRef = builder.objectRef<RecalledCue>('RecallCue');
export const RecallRef = builder.objectRef<RecallOutcome>('Recall');

RecalledMemoryRef.implement({
  description: 'One recalled memory, and why it ranks where it does (docs/recall.md explains the scores).',
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The memory.',
      resolve: (result, _args, ctx) => loadMemory(ctx, result.memoryId),
    }),
    score: t.exposeFloat('score', {
      description:
        "The blended score, best first: the memory's own match as a seed (0..1; 1 when named in seeds) plus its graph component.",
    }),
    lexical: t.exposeFloat('lexical', {
      nullable: true,
      description:
        'Full-text score 0..1: the reciprocal of its rank among the search hits (1, 1/2, 1/3, ...), those holding every name the query capitalises ranked first; null when the search did not find it.',
    }),
    vector: t.exposeFloat('vector', {
      nullable: true,
      description: 'Vector similarity 0..1; null when vectors are not configured or the vector match did not find it.',
    }),
    graph: t.exposeFloat('graph', {
      nullable: true,
      description:
        'Activation received through edges, capped at 1; null for seeds (activation flows out of seeds, not into them).',
    }),
    seed: t.exposeBoolean('seed', {
      description: 'It was a seed: a lexical or vector match, named in `seeds`, or brought by a recall cue (`cue`).',
    }),
    path: t.field({
      type: [EdgeRef],
      description:
        'Its activation path: the edges that carried most of its activation, seed end first; empty for a seed. An edge deleted since the recall is left out.',
      resolve: async (result, _args, ctx) => {
        const edges = await ctx.loaders.edge.loadMany(result.path);
        return edges.filter(isLoaded);
      },
    }),
    associations: t.field({
      type: [RecallAssociationRef],
      description:
        'The associations on its activation path (memories sharing rare terms, or the vector bridge that placed it; not edges), in path order; `path` holds its edges. Empty when edges alone carried it, or for a seed in the place its own score gave it.',
      resolve: (result) => result.associations ?? [],
    }),
    cue: t.field({
      type: RecallCueRef,
      nullable: true,
      description:
        'The recall cue that made it a seed: an earlier question, worded like this one, that USED feedback said it answered (docs/recall.md, Learning). Null when no cue matched.',
      resolve: (result) => result.cue ?? null,
    }),
  }),
});

RecallCueRef.implement({
  description:
    'A question a memory answered, learned from USED feedback by recallId and hung on the learned association (RECALLED_WITH) the same feedback created or strengthened. A later question that names the same things and shares at least half of its other words finds the memory through it.',
  fields: (t) => ({
    edge: t.field({
      type: EdgeRef,
      nullable: true,
      description:
        "The learned association it hangs on: its weight is the cue's strength and its history the cue's; feedback on the memory adjusts it. Null when it was deleted since.",
      resolve: async (cue, _args, ctx) => (await ctx.loaders.edge.load(cue.edgeId)) ?? null,
    }),
    names: t.exposeStringList('names', {
      description: 'The names of the question it was learned from (words capitalised inside a sentence), lower-cased.',
    }),
    terms: t.exposeStringList('terms', {
      description: 'The other terms of that question, lower-cased, without stop words.',
    }),
    match: t.exposeFloat('match', {
      description: "Share of this recall's question terms (besides its names) the cue holds: 0.5..1.",
    }),
  }),
});

RecallAssociationRef.implement({
  description:
    'An association on an activation path: two memories that share rare terms or names, or a vector bridge between them (docs/recall.md, Associations). Derived from their text and vectors, not an edge: feedback adjusts edges and memories, never an association.',
  fields: (t) => ({
    kind: t.field({
      type: RecallAssociationKindEnum,
      description: "What joined them: shared rare terms, or a bridge chosen by the question's vector.",
      resolve: (association) => association.kind ?? 'TERMS',
    }),
    from: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory activation came from; null when it was deleted since.',
      resolve: async (association, _args, ctx) => {
        const memory = await ctx.loaders.memory.load(association.fromId);
        return memory ?? null;
      },
    }),
    to: t.field({
      type: MemoryRef,
      nullable: true,
      description: 'The memory it reached; null when it was deleted since.',
      resolve: async (association, _args, ctx) => {
        const memory = await ctx.loaders.memory.load(association.toId);
        return memory ?? null;
      },
    }),
    terms: t.exposeStringList('terms', {
      description:
        'The rare terms the two share, rarest first (lower-cased words of their title, content and tags); for a QUESTION_VECTOR bridge, the names it went through.',
    }),
    weight: t.exposeFloat('weight', {
      description:
        "Strength 0..1: the share of the first memory's term weight (inverse document frequency) that the second shares; for a QUESTION_VECTOR bridge, the second's similarity to the question's vector.",
    }),
    at: t.exposeInt('at', {
      description:
        'Its place in the activation path, counting edges and associations from the seed end (0 = first hop).',
    }),
  }),
});

RecallRef.implement({
  description: 'The answer of recall, as stored for recallRecord and for feedback by recallId.',
  fields: (t) => ({
    id: t.id({
      nullable: true,
      description: 'The recallId; null when the record could not be stored (the answer is still complete).',
      resolve: (view) => (view.stored ? view.record.id : null),
    }),
    query: t.string({
      nullable: true,
      description: 'The query text, when one was given.',
      resolve: (view) => view.record.query,
    }),
    results: t.field({
      type: [RecalledMemoryRef],
      description: 'Best first (score, then memory id). A memory deleted since the recall is left out.',
      resolve: async (view, _args, ctx) => {
        const memories = await ctx.loaders.memory.loadMany(view.record.results.map((result) => result.memoryId));
        return view.record.results.filter((_, index) => isLoaded(memories[index]));
      },
    }),
    truncated: t.boolean({
      description:
        'The spreading stopped at the edge budget (ENGRAM_RECALL_BUDGET): memories further out may be missing; narrow it with types, minWeight or a smaller maxDepth.',
      resolve: (view) => view.record.truncated,
    }),
    createdAt: t.field({
      type: DateTime,
      description: 'When the recall ran (UTC).',
      resolve: (view) => view.record.createdAt,
    }),
    expiresAt: t.field({
      type: DateTime,
      nullable: true,
      description: 'Until when recallRecord and feedback by recallId can use it; null when it was not stored.',
      resolve: (view) => (view.stored ? view.record.expiresAt : null),
    }),
  }),
});
