import type { GraphStore } from '../src/store/port.js';
import { generateQualityGraph, type QualityCase, type QualitySpec } from './recall-quality-graph.js';

/**
 * Recall's quality check: on the known-answer graph of recall-quality-graph.ts, where does the
 * right memory rank in searchMemories, in recall, and in recall after rounds of simulated feedback
 * (NOT_RELEVANT on every distractor recall returns, USED on the right memory when it returns it,
 * both by recallId)? Everything goes through GraphQL; the store is only used to load the graph and
 * to read the weights the feedback moved.
 */
export type Gql = (
  query: string,
  variables: Record<string, unknown>,
) => Promise<{ data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;

export interface QualityRound {
  /** Rounds of feedback given before this measurement. */
  round: number;
  hitAt5: number;
  mrr: number;
  /** Share of cases whose results (top `limit`) hold the right memory at all. */
  found: number;
  /** Mean weight of the right memory's two chain edges, and of the hit→distractor edges. */
  chainWeight: number;
  distractorWeight: number;
}

export interface QualityResult {
  cases: number;
  seed: number;
  limit: number;
  maxDepth: number;
  search: { hitAt5: number; mrr: number; found: number };
  rounds: QualityRound[];
  feedbackCalls: number;
}

const RECALL = `query QualityRecall($query: String!, $limit: Int!, $maxDepth: Int!) {
  recall(query: $query, limit: $limit, maxDepth: $maxDepth) { id results { memory { id } seed } }
}`;
const SEARCH = `query QualitySearch($query: String!, $limit: Int!) {
  searchMemories(query: $query, limit: $limit) { id }
}`;
const FEEDBACK = `mutation QualityFeedback($recallId: ID!, $memoryId: ID!, $signal: FeedbackSignal!) {
  feedback(recallId: $recallId, memoryId: $memoryId, signal: $signal, reason: "recall quality check") { newWeight }
}`;

export interface QualityOptions extends QualitySpec {
  gql: Gql;
  store: GraphStore;
  workspace: string;
  rounds: number;
  /** Rounds between two measurement rows (every round is still given feedback). */
  every: number;
  limit?: number;
  maxDepth?: number;
}

export async function runRecallQuality(options: QualityOptions): Promise<QualityResult> {
  const { gql, store, workspace } = options;
  const limit = options.limit ?? 10;
  const maxDepth = options.maxDepth ?? 2;
  const graph = generateQualityGraph(options);
  await store.importBatch(workspace, graph.batch, new Date().toISOString());

  const searchRanks: (number | null)[] = [];
  for (const item of graph.cases) {
    const ids = (data(await gql(SEARCH, { query: item.query, limit }), 'searchMemories') as { id: string }[]).map(
      (memory) => memory.id,
    );
    searchRanks.push(rankOf(ids, item.right));
  }

  const rounds: QualityRound[] = [];
  let feedbackCalls = 0;
  for (let round = 0; round <= options.rounds; round++) {
    const ranks: (number | null)[] = [];
    for (const item of graph.cases) {
      const recall = data(await gql(RECALL, { query: item.query, limit, maxDepth }), 'recall') as {
        id: string | null;
        results: { memory: { id: string } }[];
      };
      const ids = recall.results.map((result) => result.memory.id);
      ranks.push(rankOf(ids, item.right));
      if (round === options.rounds) continue;
      if (!recall.id) throw new Error(`recall for "${item.query}" returned no recallId: feedback needs one`);
      for (const memoryId of feedbackTargets(item, ids)) {
        const signal = memoryId === item.right ? 'USED' : 'NOT_RELEVANT';
        data(await gql(FEEDBACK, { recallId: recall.id, memoryId, signal }), 'feedback');
        feedbackCalls++;
      }
    }
    if (round % options.every === 0 || round === options.rounds) {
      rounds.push({ round, ...metrics(ranks), ...(await meanWeights(store, workspace, graph.cases)) });
    }
  }
  return {
    cases: graph.cases.length,
    seed: options.seed,
    limit,
    maxDepth,
    search: metrics(searchRanks),
    rounds,
    feedbackCalls,
  };
}

/** What a user who knows the answer would mark: the distractors recall showed, and the right memory when shown. */
function feedbackTargets(item: QualityCase, ids: string[]): string[] {
  return ids.filter((id) => id === item.right || item.distractors.includes(id));
}

const rankOf = (ids: string[], wanted: string): number | null => {
  const at = ids.indexOf(wanted);
  return at < 0 ? null : at + 1;
};

function metrics(ranks: (number | null)[]): { hitAt5: number; mrr: number; found: number } {
  const n = ranks.length || 1;
  return {
    hitAt5: ranks.filter((rank) => rank !== null && rank <= 5).length / n,
    mrr: ranks.reduce<number>((sum, rank) => sum + (rank === null ? 0 : 1 / rank), 0) / n,
    found: ranks.filter((rank) => rank !== null).length / n,
  };
}

async function meanWeights(
  store: GraphStore,
  workspace: string,
  cases: QualityCase[],
): Promise<{ chainWeight: number; distractorWeight: number }> {
  const mean = async (ids: string[]) => {
    const edges = await store.getEdges(workspace, ids);
    return edges.reduce((sum, edge) => sum + (edge?.weight ?? 0), 0) / (ids.length || 1);
  };
  return {
    chainWeight: await mean(cases.flatMap((item) => item.chainEdges)),
    distractorWeight: await mean(cases.flatMap((item) => item.distractorEdges)),
  };
}

function data(response: Awaited<ReturnType<Gql>>, field: string): unknown {
  if (response.errors?.length) throw new Error(`${field} failed: ${JSON.stringify(response.errors)}`);
  return response.data?.[field];
}

/** The quality check as the table `npm run bench` prints. */
export function renderRecallQuality(result: QualityResult): string {
  const pct = (value: number) => `${Math.round(value * 100)} %`;
  const header = `recall quality: ${result.cases} seeded cases (seed ${result.seed}), right memory two weighted hops from the lexical hit; limit ${result.limit}, maxDepth ${result.maxDepth}, ${result.feedbackCalls} feedback calls in all`;
  const lines = [
    '| ranking | hit@5 | MRR | found in top limit | chain edge weight | distractor edge weight |',
    '|---|---|---|---|---|---|',
    `| searchMemories alone | ${pct(result.search.hitAt5)} | ${result.search.mrr.toFixed(3)} | ${pct(result.search.found)} | | |`,
    ...result.rounds.map(
      (row) =>
        `| recall after ${row.round} feedback round${row.round === 1 ? '' : 's'} | ${pct(row.hitAt5)} | ${row.mrr.toFixed(3)} | ${pct(row.found)} | ${row.chainWeight.toFixed(3)} | ${row.distractorWeight.toFixed(3)} |`,
    ),
  ];
  return `${header}\n${lines.join('\n')}`;
}
