import { DEFAULT_RECALL_SETTINGS, type RecallSettings } from '../../config.js';
import {
  type AssociationQuestion,
  type AssociationStep,
  associationQuestion,
  associationSteps,
} from '../../domain/associations.js';
import { badInput } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { namesFirst, questionNames } from '../../domain/question-names.js';
import type { FrontierStep } from '../../domain/types.js';
import { type BridgeMemory, vectorBridge } from '../../domain/vector-bridges.js';
import type { EngramContext } from '../../graphql/context.js';
import { isLoaded } from '../../loaders/index.js';
import { compareIds } from '../../store/key-order.js';
import type { RecalledResult, RecallRecord } from '../../store/port.js';
import { supersededAmong } from '../supersession.js';
import type { VectorMatch } from '../vector-match.js';
import { requireMemory } from '../writes.js';
import {
  type ActivationState,
  associationSpreadSteps,
  byScore,
  edgeWeightCaps,
  frontierToExpand,
  lexicalScore,
  rankRecall,
  type SeedSignals,
  seedActivation,
  spreadHop,
  startActivation,
  VECTOR_LEAD_SAMPLE,
  vectorLeads,
} from './activation.js';
import { cueSeeds } from './cues.js';

export interface RecallInput {
  query: string | null;
  seeds: readonly string[] | null;
  embedding: readonly number[] | null;
  limit: number;
  maxDepth: number;
  types: readonly string[] | null;
  minWeight: number | null;
  currentOnly: boolean;
}

export interface RecallOutcome {
  record: RecallRecord;
  /** False when the record could not be stored: the answer is whole, but its id cannot be referred to. */
  stored: boolean;
}

/** Something the caller can log: recall never fails because its record could not be written. */
export type RecallLog = (error: unknown, recallId: string) => void;

/**
 * Recall: seeds from the full-text match of `query` (reciprocal-rank lexical scores), the memories
 * named in `seeds` and the vector matcher when one is configured; then spreading activation, one
 * expandFrontier call per hop for the whole frontier, within the recall edge budget and the
 * request deadline. The record is stored in a small write of its own; see docs/recall.md.
 */
export async function recall(ctx: EngramContext, input: RecallInput, log: RecallLog): Promise<RecallOutcome> {
  const settings = ctx.recall ?? DEFAULT_RECALL_SETTINGS;
  if (input.embedding !== null && !ctx.vectorMatcher) {
    throw badInput('embedding', 'vectors are not configured on this server; leave embedding out');
  }
  // An embedding alone is a question too: its vector matches are the seeds.
  if (input.query === null && (input.seeds === null || input.seeds.length === 0) && input.embedding === null) {
    throw badInput('query', 'give a query, seeds or an embedding (any of them together)');
  }
  // Read once: its names order the word matches, its terms and names weigh the associations.
  const question = input.query === null ? null : associationQuestion(input.query);
  // A bridge needs the question's names and the associations a caller naming types does not ask for.
  const bridging = settings.associations && input.types === null && question !== null && question.names.size > 0;
  const { seeds, nearest } = await collectSeeds(ctx, input, question, settings, bridging);
  const vectorsRan = ctx.vectorMatcher !== undefined;
  // Under currentOnly, superseded memories are left out; otherwise nothing is asked of the store.
  const excludeSuperseded = async (ids: readonly string[]): Promise<ReadonlySet<string> | undefined> =>
    input.currentOnly ? supersededAmong(ctx, ids) : undefined;
  // Lexical seeds come from a search that already left superseded memories out, and named seeds
  // always stay: only the vector matcher's and the cues' own finds are asked about.
  const unsearched = [...seeds].filter(([, signals]) => !signals.named && signals.lexical === null).map(([id]) => id);
  for (const id of (await excludeSuperseded(unsearched)) ?? []) seeds.delete(id);
  const state = startActivation(new Map([...seeds].map(([id, signals]) => [id, seedActivation(signals, vectorsRan)])));
  let spent = 0;
  let truncated = false;
  // A caller who names relation types asks for those edges only.
  const associate = settings.associations && input.types === null;
  for (let hop = 1; hop <= input.maxDepth; hop++) {
    const spreading = frontierToExpand(state);
    if (spreading.length === 0) break;
    ctx.signal?.throwIfAborted();
    const expansion = await ctx.store.expandFrontier(ctx.workspace, spreading, {
      direction: 'BOTH',
      types: input.types,
      pruneThreshold: ctx.policy.pruneThreshold,
      budget: settings.budget - spent,
      // minWeight drops edges after the store has weighed them all, so caps would skip too much.
      maxTotalWeight: input.minWeight === null ? edgeWeightCaps(state, spreading, settings.decay) : null,
    });
    spent += expansion.examined ?? expansion.steps.length;
    // From the seeds only, as HippoRAG spreads from the question's own phrases: one association read per recall.
    const associated =
      associate && hop === 1
        ? await associationsOf(ctx, state, input.limit, question, settings, settings.budget - spent)
        : null;
    spent += associated?.spent ?? 0;
    const steps = heavyEnough(
      associated ? [...expansion.steps, ...associationSpreadSteps(associated.steps)] : expansion.steps,
      input.minWeight,
    );
    // Listing the memories a hop reaches costs as much as the hop itself: only currentOnly needs them.
    const excluded = input.currentOnly ? await excludeSuperseded(unreached(state, steps)) : undefined;
    spreadHop(state, steps, settings.decay, excluded);
    if (expansion.truncated || associated?.truncated) {
      truncated = true;
      break;
    }
  }
  // The memories' own weights reorder the best candidates (weightPrior); a memory further down
  // than CANDIDATES_PER_RESULT x limit could not climb into the answer by its weight alone.
  const candidates = rankRecall(state, seeds, vectorsRan, input.limit * CANDIDATES_PER_RESULT);
  // The bridge's candidates are read in the same store call as the answer's memories.
  const bridgeCandidates = bridging ? nearest.slice(0, BRIDGE_SAMPLE) : [];
  const loaded = await ctx.loaders.memory.loadMany([
    ...candidates.map((result) => result.memoryId),
    ...bridgeCandidates.map((match) => match.memoryId),
  ]);
  const present = loaded.slice(0, candidates.length);
  const weighed = candidates
    // A row whose memory is not in the workspace (only possible by writing the database directly) leads nowhere.
    .flatMap((result, index) => {
      const memory = present[index];
      if (!isLoaded(memory)) return [];
      return [{ ...result, score: result.score * weightPrior(memory.weight, ctx.policy.defaultMemoryWeight) }];
    })
    .sort(byScore)
    .slice(0, input.limit);
  const bridgeSource = bestWordMatch(seeds) ?? weighed[0]?.memoryId;
  const ranked =
    bridgeCandidates.length > 0 && question !== null && bridgeSource !== undefined
      ? await withVectorBridge(
          ctx,
          weighed,
          bridgeSource,
          question,
          bridgeCandidates.flatMap((match, index) => {
            const memory = loaded[candidates.length + index];
            return isLoaded(memory) ? [{ memory, similarity: match.similarity }] : [];
          }),
          excludeSuperseded,
        )
      : weighed;
  const createdAt = nowIso();
  const record: RecallRecord = {
    id: newId(),
    query: input.query,
    results: ranked,
    truncated,
    createdAt,
    expiresAt: new Date(Date.parse(createdAt) + settings.ttlSeconds * 1000).toISOString(),
  };
  try {
    await ctx.store.saveRecall(ctx.workspace, record, createdAt);
    return { record, stored: true };
  } catch (error) {
    log(error, record.id);
    return { record, stored: false };
  }
}

/**
 * How many of the question's vector matches, most similar first, a bridge is looked for among: the
 * vector matcher's most. A multi-hop question's later note is often far from the question as a
 * whole: on bench/longmem (notes, seed 42), of the 30 later notes a bridge found when every note
 * was a candidate, 21 were among the question's 50 nearest and 25 among its 200; multi-hop R@5 was
 * 0.555 with 50, 0.586 with 200 and 0.625 with all 3,107 (bench/README.md, Associations). Every
 * candidate's text is read, in the store call that reads the answer's memories: 200 keeps that
 * read bounded whatever the workspace's size.
 */
const BRIDGE_SAMPLE = 200;

/**
 * The place a vector bridge takes: fifth, after the question's four best results, so it is in view
 * of a caller who reads the first five and never displaces the best matches. With a smaller limit,
 * the last place; with a limit of 1 there is no bridge (the one answer is the best result).
 */
const BRIDGE_RANK = 5;

/**
 * The question's best word match (the search's first, those holding its names first): the memory
 * a bridge starts from. The name the question could not say is in the memory its words found; the
 * best vector match is about the question as a whole, and on bench/longmem it was a multi-hop
 * question's first evidence less often (notes, seed 42: 32 of 64 against 37).
 */
const bestWordMatch = (seeds: ReadonlyMap<string, SeedSignals>): string | null =>
  [...seeds].find(([, signals]) => signals.lexical === lexicalScore(0))?.[0] ?? null;

/**
 * The answer with the vector bridge from `sourceId` in its BRIDGE_RANK-th place (at most the
 * last), unless the bridge already ranks there or above. The bridged memory is shown as carried by
 * that association (RecalledResult.associations: kind QUESTION_VECTOR, the shared names, the
 * question's similarity as its weight), which is what put it there, and is scored as the result it
 * displaced; the rest keep their order. Under currentOnly a superseded memory is no bridge.
 */
async function withVectorBridge(
  ctx: EngramContext,
  ranked: readonly RecalledResult[],
  sourceId: string,
  question: AssociationQuestion,
  nearest: readonly { memory: BridgeMemory; similarity: number }[],
  excludeSuperseded: (ids: readonly string[]) => Promise<ReadonlySet<string> | undefined>,
): Promise<RecalledResult[]> {
  if (ranked.length < 2) return [...ranked];
  const source = await ctx.loaders.memory.load(sourceId);
  if (!source) return [...ranked];
  const superseded = await excludeSuperseded(nearest.map(({ memory }) => memory.id));
  const bridge = vectorBridge(
    source,
    question,
    superseded ? nearest.filter(({ memory }) => !superseded.has(memory.id)) : nearest,
  );
  if (!bridge) return [...ranked];
  const slot = Math.min(BRIDGE_RANK, ranked.length) - 1;
  const at = ranked.findIndex((result) => result.memoryId === bridge.to);
  if (at !== -1 && at <= slot) return [...ranked];
  const shown = ranked[at];
  const bridged: RecalledResult = {
    memoryId: bridge.to,
    score: (ranked[slot] as RecalledResult).score,
    lexical: shown?.lexical ?? null,
    vector: shown?.vector ?? bridge.similarity,
    graph: shown?.graph ?? null,
    seed: shown?.seed ?? false,
    path: [],
    associations: [
      {
        kind: 'QUESTION_VECTOR',
        fromId: bridge.from,
        toId: bridge.to,
        terms: bridge.names,
        weight: bridge.similarity,
        at: 0,
      },
    ],
    ...(shown?.cue ? { cue: shown.cue } : {}),
  };
  const rest = ranked.filter((result) => result.memoryId !== bridge.to);
  return [...rest.slice(0, slot), bridged, ...rest.slice(slot)].slice(0, ranked.length);
}

/** How many candidates per requested result are reordered by their memories' weights. */
const CANDIDATES_PER_RESULT = 3;

/**
 * A memory's own weight as a factor on its score, centred on the default weight: 1 for a memory
 * feedback never touched (an untouched graph ranks as it would without it), 1 ± the distance from
 * the default otherwise (0.5 .. 1.5 with the default weights). USED raises it, NOT_USEFUL lowers it.
 */
const weightPrior = (weight: number, defaultWeight: number): number => 1 + (weight - defaultWeight);

/**
 * The associations of the frontier's most active memories (at most `limit` of them: those that can
 * matter to the answer; the rest would pass on too little to rank). One sharedTerms call, whose
 * units count against the recall budget like edges.
 */
async function associationsOf(
  ctx: EngramContext,
  state: ActivationState,
  limit: number,
  question: AssociationQuestion | null,
  settings: RecallSettings,
  budget: number,
): Promise<{ steps: AssociationStep[]; spent: number; truncated: boolean } | null> {
  if (budget <= 0) return { steps: [], spent: 0, truncated: true };
  const active = [...state.frontier]
    .sort((a, b) => (state.activation.get(b) ?? 0) - (state.activation.get(a) ?? 0) || compareIds(a, b))
    .slice(0, limit);
  const answer = await ctx.store.associationCandidates(ctx.workspace, active, {
    maxShared: settings.associationMaxShared,
    budget,
  });
  const spent = answer.sources.reduce((sum, source) => sum + source.terms.length, 0) + answer.candidates.length;
  return {
    steps: associationSteps(answer, settings.associationsPerMemory, settings.associationMaxShared, question),
    spent,
    truncated: answer.truncated,
  };
}

const unreached = (state: ActivationState, steps: readonly FrontierStep[]): string[] =>
  [...new Set(steps.map((step) => step.to))].filter((id) => !state.activation.has(id));

const heavyEnough = <T extends FrontierStep>(steps: readonly T[], minWeight: number | null): readonly T[] =>
  minWeight === null ? steps : steps.filter((step) => step.weight >= minWeight);

/**
 * How many word matches per requested seed a question that names something reads, so that the
 * matches holding its names (which full-text relevance may rank below others) can come first.
 */
const MATCHES_PER_NAMED_SEED = 3;

/**
 * Seeds from the four sources (words, vectors, named seeds, recall cues), keyed by memory id; a
 * memory found by several keeps every signal.
 */
async function collectSeeds(
  ctx: EngramContext,
  input: RecallInput,
  question: AssociationQuestion | null,
  settings: RecallSettings,
  bridging: boolean,
): Promise<{ seeds: Map<string, SeedSignals>; nearest: VectorMatch[] }> {
  const names = question === null ? [] : questionNames(question);
  const [named, matches, vector, cued] = await Promise.all([
    Promise.all(
      (input.seeds ?? []).map((ref) => requireMemory({ findMemory: (r) => ctx.loaders.memory.load(r) }, ref, 'seeds')),
    ),
    input.query === null
      ? Promise.resolve([])
      : ctx.store.searchMemories(ctx.workspace, {
          text: input.query,
          kinds: null,
          tags: null,
          limit: names.length > 0 ? input.limit * MATCHES_PER_NAMED_SEED : input.limit,
          currentOnly: input.currentOnly,
          pruneThreshold: ctx.policy.pruneThreshold,
        }),
    ctx.vectorMatcher && (input.query !== null || input.embedding !== null)
      ? ctx.vectorMatcher(
          ctx.workspace,
          { text: input.query, embedding: input.embedding },
          Math.max(input.limit, VECTOR_LEAD_SAMPLE, bridging ? BRIDGE_SAMPLE : 0),
          ctx.signal,
        )
      : Promise.resolve([]),
    cueSeeds(ctx, question, settings),
  ]);
  const seeds = new Map<string, SeedSignals>();
  const signalsOf = (id: string): SeedSignals => {
    let signals = seeds.get(id);
    if (!signals) {
      signals = { lexical: null, vector: null, vectorRank: null, named: false };
      seeds.set(id, signals);
    }
    return signals;
  };
  const lexical = namesFirst(matches, names).slice(0, input.limit);
  lexical.forEach((memory, rank) => {
    ctx.loaders.memory.prime(memory.id, memory);
    signalsOf(memory.id).lexical = lexicalScore(rank);
  });
  const nearest = [...vector].sort((a, b) => b.similarity - a.similarity || compareIds(a.memoryId, b.memoryId));
  const leads = vectorLeads(nearest.map((match) => match.similarity));
  nearest.slice(0, input.limit).forEach((match, rank) => {
    const signals = signalsOf(match.memoryId);
    signals.vector = match.similarity;
    signals.vectorRank = lexicalScore(rank);
    if (rank === 0 && leads) signals.vectorLead = true;
  });
  for (const memory of named) signalsOf(memory.id).named = true;
  for (const [memoryId, { strength, cue }] of cued) {
    const signals = signalsOf(memoryId);
    signals.learned = strength;
    signals.cue = cue;
  }
  return { seeds, nearest };
}
