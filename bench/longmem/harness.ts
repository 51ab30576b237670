import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, type EngramApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { associationQuestion } from '../../src/domain/associations.js';
import { type CueWords, cueMatch, cueWords } from '../../src/domain/recall-cues.js';
import { createEmbeddingBackfill } from '../../src/embeddings/backfill.js';
import { createEmbeddingsClient, type Embedder } from '../../src/embeddings/client.js';
import { embeddingText } from '../../src/embeddings/text.js';
import { createLogger } from '../../src/logger.js';
import type { GraphStore } from '../../src/store/port.js';
import { sqliteStoreOptions } from '../../src/store/sqlite/adapter.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import {
  describeSet,
  fingerprint,
  generateLongMem,
  type LongMemQuestion,
  type LongMemSet,
  type QuestionKind,
  type Shape,
  splitQuestions,
} from './generator.js';
import {
  cosineTopK,
  type LearningReach,
  latency,
  learningReach,
  meanRecall,
  normalize,
  oracleGain,
  type RecallByKind,
  type RecallRow,
  recallByKind,
} from './metrics.js';
import type { Endpoint } from './vectors.js';

/**
 * The long-memory benchmark on one shape: the set generated, loaded into a fresh SQLite file
 * through GraphQL importGraph, every question asked through app.fetch (searchMemories and
 * recall, limit 10), evidence recall@1/5/10 per kind, recall's latency, then the learning-gain
 * protocol (feedback by recallId on a seeded half, the other half measured before and after).
 * With an embeddings endpoint: the memories embedded by Engram's own back-fill, and rows for
 * recall with vectors, vector alone (cosine over the endpoint's vectors, here) and recall
 * without vectors on the same store.
 */

export const LIMIT = 10;
/** The method that is recall with vectors but without associations (and so without vector bridges). */
export const VECTORS_NO_ASSOCIATIONS = 'recall with vectors, no associations';
/** importGraph takes at most 1,000 records per call; its cost is 10 + one per record, under ENGRAM_MAX_COST's 5,000. */
const IMPORT_BATCH = 1000;
const WARMUP = 5;

export interface MethodResult {
  name: string;
  byKind: RecallByKind;
}

export interface GroupGain {
  label: string;
  n: number;
  before: RecallRow;
  after: RecallRow;
}

export interface LearningResult {
  method: string;
  train: number;
  test: number;
  recalls: number;
  feedback: { used: number; notUseful: number; failed: number; firstError: string | null };
  /** Test half, by kind and overall, before and after. */
  before: RecallByKind;
  after: RecallByKind;
  groups: GroupGain[];
  /** Test questions whose top 10 changed at all. */
  changed: number;
  /** The gain an oracle would get from the same feedback (metrics.ts, oracleGain). */
  oracle: number;
  /** Why the shared evidence missing from the test half's top 5 after learning is missing (metrics.ts). */
  reach: LearningReach;
  /**
   * The most R@5 learning from USED could add on the test half: per test question, the share of
   * its evidence that a train question's recall returned (so it was marked USED) and that the test
   * question's first pass left out of its top 5, averaged over the test half. Learning cannot
   * lift a memory no train recall returned, nor lift one already in the top 5.
   */
  headroom: number;
}

export interface QuestionTrace {
  id: string;
  kind: QuestionKind;
  text: string;
  evidence: string[];
  half: 'train' | 'test';
  ranked: Record<string, string[]>;
}

export interface ShapeResult {
  shape: Shape;
  seed: number;
  scale: number;
  /** Wordings per question at least (generator's `asks`). */
  asks: number;
  fingerprint: string;
  counts: ReturnType<typeof describeSet>;
  code: string;
  /** The machine's 1-minute load average when the shape started and when it ended. */
  loadAverage: [number, number];
  loadMs: number;
  embeddings: { backend: string; model: string; ms: number; stored: number; dims: number } | null;
  methods: MethodResult[];
  latency: Record<string, ReturnType<typeof latency>>;
  learning: LearningResult;
  findings: string[];
  questions: QuestionTrace[];
}

export interface HarnessOptions {
  shape: Shape;
  seed: number;
  scale?: number;
  asks?: number;
  endpoint?: Endpoint | null;
  backendName?: string;
  log?: (message: string) => void;
  /** Keep the SQLite file (its folder is logged). */
  keep?: boolean;
}

type GqlResult = { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] };
type Gql = (query: string, variables?: Record<string, unknown>) => Promise<GqlResult>;

function gqlFor(app: EngramApp): Gql {
  return async (query, variables = {}) => {
    const response = await app.fetch('http://longmem.bench/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GqlResult;
  };
}

function dataOf(result: GqlResult, what: string): any {
  if (result.errors?.length) {
    const error = result.errors[0] as { message: string; extensions?: Record<string, unknown> };
    throw new Error(`${what}: ${error.extensions?.code ?? 'ERROR'} ${error.message}`);
  }
  return result.data;
}

const IMPORT = `mutation LongMemImport($memories: [ImportMemoryInput!], $edges: [ImportEdgeInput!]) {
  importGraph(memories: $memories, edges: $edges) { memories edges }
}`;
const SEARCH = `query LongMemSearch($query: String!, $limit: Int!) { searchMemories(query: $query, limit: $limit) { id } }`;
const RECALL = `query LongMemRecall($query: String!, $limit: Int!) {
  recall(query: $query, limit: $limit) { id results { memory { id } } }
}`;
const RECALL_EMBEDDING = `query LongMemRecallEmbedding($embedding: [Float!]!, $limit: Int!) {
  recall(embedding: $embedding, limit: $limit) { id results { memory { id } } }
}`;
const FEEDBACK = `mutation LongMemFeedback($recallId: ID!, $memoryId: ID!, $signal: FeedbackSignal!) {
  feedback(recallId: $recallId, memoryId: $memoryId, signal: $signal, reason: "longmem benchmark") { newWeight }
}`;
const HAS_EMBEDDING = `query LongMemHasEmbedding($ids: [ID!]!) { memories(ids: $ids) { id hasEmbedding } }`;

/** Which commit the numbers are of, and whether src/ had uncommitted changes. */
function codeState(): string {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  try {
    const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', 'src'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter(Boolean).length;
    return dirty ? `${head} with ${dirty} uncommitted file${dirty === 1 ? '' : 's'} in src/` : `${head} (src/ clean)`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

export async function runShape(options: HarnessOptions): Promise<ShapeResult> {
  const log = options.log ?? (() => {});
  const loadBefore = loadavg()[0] as number;
  const scale = options.scale ?? 1;
  const set = generateLongMem({ shape: options.shape, seed: options.seed, scale, asks: options.asks });
  const counts = describeSet(set);
  log(
    `${set.shape} seed ${set.seed}: ${counts.memories} memories, ${set.edges.length} edges, ${set.questions.length} questions`,
  );
  const endpoint = options.endpoint ?? null;
  const dir = mkdtempSync(join(tmpdir(), `engram-longmem-${set.shape}-`));
  const dbPath = join(dir, 'engram.db');
  // Associations on (issue 28): the import writes terms, recall spreads through them; the
  // `recall, no associations` row asks the same database with them off (recall as before).
  const base = { ENGRAM_SQLITE_PATH: dbPath, ENGRAM_LOG_LEVEL: 'silent', ENGRAM_ASSOCIATIONS: 'true' };
  const vectorEnv = endpoint
    ? {
        ENGRAM_EMBEDDINGS_URL: endpoint.url,
        ENGRAM_EMBEDDINGS_MODEL: endpoint.model,
        ENGRAM_EMBEDDINGS_BATCH: '128',
        ENGRAM_EMBEDDINGS_TIMEOUT_MS: '300000',
        // Every question is embedded when asked: the warm-ups ask the first five again, and the
        // learning pass asks the test half a second time (docs/vectors.md, a question asked again).
        ENGRAM_EMBEDDINGS_QUERY_CACHE: '0',
      }
    : {};
  const plainConfig = loadConfig(base);
  const config = loadConfig({ ...base, ...vectorEnv });
  const store = createSqliteStore(config.store.kind === 'sqlite' ? sqliteStoreOptions(config.store) : { path: dbPath });
  const logger = createLogger('silent');
  const plain = gqlFor(createApp({ config: plainConfig, store, logger }));
  // Same database (terms were written by the import), but recall follows edges only: today's recall.
  const edgesOnly = gqlFor(createApp({ config: loadConfig({ ...base, ENGRAM_ASSOCIATIONS: 'false' }), store, logger }));
  const withVectors = endpoint ? gqlFor(createApp({ config, store, logger })) : null;
  // With vectors, the same without associations (nor their vector bridges): what issue 28's rows compare with.
  const vectorsOnly = endpoint
    ? gqlFor(createApp({ config: loadConfig({ ...base, ...vectorEnv, ENGRAM_ASSOCIATIONS: 'false' }), store, logger }))
    : null;
  const findings: string[] = [];
  try {
    const loadStart = performance.now();
    await load(plain, set);
    const loadMs = performance.now() - loadStart;
    log(`loaded through importGraph in ${(loadMs / 1000).toFixed(1)} s`);

    let embeddings: ShapeResult['embeddings'] = null;
    let memoryVectors: Map<string, Float32Array> | null = null;
    if (endpoint) {
      const embedded = await embedAll(store, config, set, endpoint, plain, log);
      embeddings = {
        backend: options.backendName ?? 'endpoint',
        model: endpoint.model,
        ms: embedded.ms,
        stored: embedded.stored,
        dims: embedded.dims,
      };
      memoryVectors = embedded.vectors;
    }

    // Every question through searchMemories and recall (and recall with vectors), timed.
    const asked = (name: string, gql: Gql, query: string, field: string) => ({
      name,
      gql,
      query,
      field,
      times: [] as number[],
      ranked: [] as string[][],
      ids: [] as (string | null)[],
    });
    const methods = [
      asked('searchMemories', plain, SEARCH, 'searchMemories'),
      asked('recall, no associations', edgesOnly, RECALL, 'recall'),
      asked(endpoint ? 'recall, no vectors' : 'recall', plain, RECALL, 'recall'),
    ];
    if (withVectors && vectorsOnly)
      methods.push(
        asked('recall with vectors', withVectors, RECALL, 'recall'),
        asked(VECTORS_NO_ASSOCIATIONS, vectorsOnly, RECALL, 'recall'),
      );
    for (const method of methods) {
      for (const question of set.questions.slice(0, WARMUP))
        await method.gql(method.query, { query: question.text, limit: LIMIT });
    }
    let done = 0;
    for (const question of set.questions) {
      for (const method of methods) {
        const start = performance.now();
        const result = await method.gql(method.query, { query: question.text, limit: LIMIT });
        method.times.push(performance.now() - start);
        const data = dataOf(result, `${method.name} "${question.text}"`);
        if (method.field === 'searchMemories') {
          method.ranked.push((data.searchMemories as { id: string }[]).map((memory) => memory.id));
          method.ids.push(null);
        } else {
          method.ranked.push((data.recall.results as { memory: { id: string } }[]).map((result) => result.memory.id));
          method.ids.push(data.recall.id as string | null);
        }
      }
      if (++done % 100 === 0) log(`asked ${done} of ${set.questions.length}`);
    }
    const scored = (ranked: string[][]) =>
      set.questions.map((question, index) => ({
        kind: question.kind,
        evidence: question.evidence,
        ranked: ranked[index] as string[],
      }));
    const results: MethodResult[] = methods.map((method) => ({
      name: method.name,
      byKind: recallByKind(scored(method.ranked)),
    }));
    const latencies: ShapeResult['latency'] = {};
    for (const method of methods) latencies[method.name] = latency(method.times);
    const traces: QuestionTrace[] = set.questions.map((question) => ({
      id: question.id,
      kind: question.kind,
      text: question.text,
      evidence: question.evidence,
      half: 'test',
      ranked: Object.fromEntries(
        methods.map((method) => [method.name, method.ranked[set.questions.indexOf(question)] as string[]]),
      ),
    }));

    if (endpoint && memoryVectors) {
      // What recall with vectors pays the endpoint per question: one text, one request.
      const single: number[] = [];
      for (const question of set.questions.slice(0, 50)) {
        const start = performance.now();
        await endpoint.embed([question.text]);
        single.push(performance.now() - start);
      }
      latencies['embeddings endpoint, one question (harness fetch)'] = latency(single);
      const queryVectors = (await endpoint.embed(set.questions.map((question) => question.text))).map(normalize);
      const ids = set.memories.map((memory) => memory.id);
      const vectors = ids.map((id) => memoryVectors.get(id) as Float32Array);
      const cosine = queryVectors.map((query) => cosineTopK(query, ids, vectors, LIMIT).map((hit) => hit.id));
      results.push({ name: 'vector alone (cosine)', byKind: recallByKind(scored(cosine)) });
      traces.forEach((trace, index) => {
        trace.ranked['vector alone (cosine)'] = cosine[index] as string[];
      });
      // recall with only a vector (no query, no seeds): docs/recall.md lists vector matches as a seed source.
      const probe = await (withVectors as Gql)(RECALL_EMBEDDING, {
        embedding: Array.from(queryVectors[0] as Float32Array),
        limit: LIMIT,
      });
      if (probe.errors?.length) {
        const error = probe.errors[0] as { message: string; extensions?: Record<string, unknown> };
        findings.push(
          `recall(embedding:) without query or seeds is refused: ${error.extensions?.code ?? ''} "${error.message}"`,
        );
      } else {
        const embeddingOnly: string[][] = [];
        const times: number[] = [];
        for (const query of queryVectors) {
          const start = performance.now();
          const data = dataOf(
            await (withVectors as Gql)(RECALL_EMBEDDING, { embedding: Array.from(query), limit: LIMIT }),
            'recall(embedding)',
          );
          times.push(performance.now() - start);
          embeddingOnly.push((data.recall.results as { memory: { id: string } }[]).map((result) => result.memory.id));
        }
        latencies['recall, embedding only'] = latency(times);
        results.push({ name: 'recall, embedding only', byKind: recallByKind(scored(embeddingOnly)) });
      }
    }

    // The learning gain, with recall as configured (with vectors when there are any).
    const primary = methods[methods.length - 1] as (typeof methods)[number];
    const learning = await learningGain(set, primary.gql, primary.name, primary.ranked, traces, log);
    return {
      shape: set.shape,
      seed: set.seed,
      scale,
      asks: set.asks,
      fingerprint: fingerprint(set),
      counts,
      code: codeState(),
      loadAverage: [loadBefore, loadavg()[0] as number],
      loadMs,
      embeddings,
      methods: results,
      latency: latencies,
      learning,
      findings,
      questions: traces,
    };
  } finally {
    await store.close();
    if (options.keep) log(`kept ${dbPath}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

async function load(gql: Gql, set: LongMemSet): Promise<void> {
  for (let start = 0; start < set.memories.length; start += IMPORT_BATCH) {
    const memories = set.memories.slice(start, start + IMPORT_BATCH).map((memory) => ({
      id: memory.id,
      title: memory.title,
      content: memory.content,
      kind: memory.kind,
      tags: memory.tags,
      metadata: memory.metadata,
    }));
    dataOf(await gql(IMPORT, { memories }), 'importGraph (memories)');
  }
  for (let start = 0; start < set.edges.length; start += IMPORT_BATCH) {
    dataOf(await gql(IMPORT, { edges: set.edges.slice(start, start + IMPORT_BATCH) }), 'importGraph (edges)');
  }
}

/**
 * Fills every memory's vector with Engram's own back-fill (the path docs/vectors.md gives for
 * importGraph's memories), round after round until the queue is empty, then checks hasEmbedding
 * on every memory. The back-fill's endpoint calls are recorded, so the vector-alone row uses the
 * very vectors Engram stored; any memory embedded some other way (at import, say) is embedded
 * again here for that row.
 */
async function embedAll(
  store: GraphStore,
  config: Config,
  set: LongMemSet,
  endpoint: Endpoint,
  gql: Gql,
  log: (message: string) => void,
): Promise<{ ms: number; stored: number; dims: number; vectors: Map<string, Float32Array> }> {
  if (!config.embeddings) throw new Error('vectors asked for but the configuration has no endpoint');
  const client = createEmbeddingsClient(config.embeddings);
  const byText = new Map<string, number[]>();
  const recording: Embedder = {
    async embed(texts, signal, retries) {
      const vectors = await client.embed(texts, signal, retries);
      texts.forEach((text, index) => {
        byText.set(text, vectors[index] as number[]);
      });
      return vectors;
    },
  };
  const backfill = createEmbeddingBackfill({
    store,
    embedder: recording,
    logger: createLogger('silent'),
    intervalMs: config.embeddings.backfillMs,
    batch: config.embeddings.batch,
  });
  const start = performance.now();
  let stored = 0;
  let idle = 0;
  for (;;) {
    const round = await backfill.runOnce();
    stored += round;
    if (round > 0) {
      idle = 0;
      if (stored % 1024 < round)
        log(`back-fill: ${stored} vectors stored (${((performance.now() - start) / 1000).toFixed(0)} s)`);
      continue;
    }
    const missing = await withoutEmbedding(gql, set);
    if (missing.length === 0) break;
    if (++idle > 5)
      throw new Error(
        `${missing.length} memories still have no embedding after the back-fill; server log:\n${endpoint.log()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const ms = performance.now() - start;
  log(`back-fill done: ${stored} vectors in ${(ms / 1000).toFixed(1)} s; every memory has its embedding`);
  const vectors = new Map<string, Float32Array>();
  const again: { id: string; text: string }[] = [];
  for (const memory of set.memories) {
    const text = embeddingText(memory);
    const vector = byText.get(text);
    if (vector) vectors.set(memory.id, normalize(vector));
    else again.push({ id: memory.id, text });
  }
  if (again.length > 0) {
    log(`${again.length} vectors were not written by the back-fill; embedding them for the vector-alone row`);
    const fresh = await endpoint.embed(again.map((item) => item.text));
    again.forEach((item, index) => {
      vectors.set(item.id, normalize(fresh[index] as number[]));
    });
  }
  const dims = vectors.values().next().value?.length ?? 0;
  return { ms, stored, dims, vectors };
}

async function withoutEmbedding(gql: Gql, set: LongMemSet): Promise<string[]> {
  const missing: string[] = [];
  for (let start = 0; start < set.memories.length; start += 100) {
    const ids = set.memories.slice(start, start + 100).map((memory) => memory.id);
    const data = dataOf(await gql(HAS_EMBEDDING, { ids }), 'memories { hasEmbedding }');
    for (const memory of data.memories as ({ id: string; hasEmbedding: boolean } | null)[]) {
      if (memory && !memory.hasEmbedding) missing.push(memory.id);
    }
  }
  return missing;
}

/**
 * Split the questions in seeded halves. The test half's R@5 before is the first pass's (recall
 * changes no weight). For every train question: recall, then by its recallId USED on each evidence
 * memory among the results and NOT_USEFUL on each other memory of the top 5. Then the test half
 * again.
 */
async function learningGain(
  set: LongMemSet,
  gql: Gql,
  method: string,
  firstPass: string[][],
  traces: QuestionTrace[],
  log: (message: string) => void,
): Promise<LearningResult> {
  const { train, test } = splitQuestions(set.questions, set.seed);
  const indexOf = new Map(set.questions.map((question, index) => [question.id, index]));
  for (const question of train) (traces[indexOf.get(question.id) as number] as QuestionTrace).half = 'train';
  const feedback = { used: 0, notUseful: 0, failed: 0, firstError: null as string | null };
  const touched = new Set<string>();
  const trainEvidence = new Set(train.flatMap((question) => question.evidence));
  const markedUsed = new Set<string>();
  const markedNotUseful = new Set<string>();
  // The cue words of the train questions that marked each memory USED, as recall files them.
  const usedCues = new Map<string, CueWords[]>();
  let recalls = 0;
  for (const question of train) {
    const data = dataOf(await gql(RECALL, { query: question.text, limit: LIMIT }), `recall "${question.text}"`);
    recalls++;
    const recallId = data.recall.id as string | null;
    const ids = (data.recall.results as { memory: { id: string } }[]).map((result) => result.memory.id);
    if (!recallId) {
      feedback.failed++;
      feedback.firstError ??= 'recall returned no recallId';
      continue;
    }
    const evidence = new Set(question.evidence);
    const cue = cueWords(associationQuestion(question.text));
    const calls = [
      ...ids.filter((id) => evidence.has(id)).map((memoryId) => ({ memoryId, signal: 'USED' })),
      ...ids
        .slice(0, 5)
        .filter((id) => !evidence.has(id))
        .map((memoryId) => ({ memoryId, signal: 'NOT_USEFUL' })),
    ];
    for (const call of calls) {
      const result = await gql(FEEDBACK, { recallId, ...call });
      touched.add(call.memoryId);
      if (!result.errors?.length && call.signal === 'USED') {
        markedUsed.add(call.memoryId);
        if (cue) usedCues.set(call.memoryId, [...(usedCues.get(call.memoryId) ?? []), cue]);
      }
      if (!result.errors?.length && call.signal === 'NOT_USEFUL') markedNotUseful.add(call.memoryId);
      if (result.errors?.length) {
        feedback.failed++;
        feedback.firstError ??= `${call.signal}: ${result.errors[0]?.message}`;
      } else if (call.signal === 'USED') feedback.used++;
      else feedback.notUseful++;
    }
  }
  log(
    `feedback: ${feedback.used} USED, ${feedback.notUseful} NOT_USEFUL on ${train.length} train questions${feedback.failed ? `, ${feedback.failed} failed` : ''}`,
  );
  const after: string[][] = [];
  for (const question of test) {
    const data = dataOf(await gql(RECALL, { query: question.text, limit: LIMIT }), `recall "${question.text}"`);
    after.push((data.recall.results as { memory: { id: string } }[]).map((result) => result.memory.id));
    (traces[indexOf.get(question.id) as number] as QuestionTrace).ranked[`${method}, after feedback`] = after[
      after.length - 1
    ] as string[];
  }
  const beforeRows = test.map((question) => ({
    question,
    kind: question.kind,
    evidence: question.evidence,
    ranked: firstPass[indexOf.get(question.id) as number] as string[],
  }));
  const afterRows = test.map((question, index) => ({
    question,
    kind: question.kind,
    evidence: question.evidence,
    ranked: after[index] as string[],
  }));
  const group = (label: string, keep: (question: LongMemQuestion) => boolean): GroupGain => {
    const b = beforeRows.filter((row) => keep(row.question));
    const a = afterRows.filter((row) => keep(row.question));
    return { label, n: b.length, before: meanRecall(b), after: meanRecall(a) };
  };
  const shared = (question: LongMemQuestion) => question.evidence.some((id) => trainEvidence.has(id));
  const untouched = (question: LongMemQuestion) => !question.evidence.some((id) => touched.has(id));
  return {
    method,
    train: train.length,
    test: test.length,
    recalls,
    feedback,
    before: recallByKind(beforeRows),
    after: recallByKind(afterRows),
    groups: [
      group('share an evidence memory with a train question', shared),
      group(
        'no shared evidence; evidence got feedback (NOT_USEFUL) as a train result',
        (q) => !shared(q) && !untouched(q),
      ),
      group('evidence got no feedback at all', (q) => !shared(q) && untouched(q)),
    ],
    headroom:
      beforeRows.reduce((sum, row) => {
        const top5 = new Set(row.ranked.slice(0, 5));
        const liftable = row.evidence.filter((id) => markedUsed.has(id) && !top5.has(id)).length;
        return sum + liftable / row.evidence.length;
      }, 0) / Math.max(1, beforeRows.length),
    oracle: oracleGain(beforeRows, markedUsed, markedNotUseful),
    reach: learningReach(afterRows, trainEvidence, markedUsed, (row, memoryId) => {
      const words = cueWords(associationQuestion(row.question.text));
      return words !== null && (usedCues.get(memoryId) ?? []).some((cue) => cueMatch(words, cue) > 0);
    }),
    changed: afterRows.filter(
      (row, index) => row.ranked.join() !== (beforeRows[index] as { ranked: string[] }).ranked.join(),
    ).length,
  };
}
