import { expect } from 'vitest';
import type { GraphFixture } from '../../fixtures/graphs.js';
import type { TestApp } from '../../helpers/app.js';

/**
 * The lexical hit `hit` ("Warmup spikes") is the only memory the query "warmup spikes" finds.
 * Two weighted hops away sits `target` (hit -0.9-> mid -0.8-> target); one weak hop away the
 * distractor (hit -0.2-> distractor). Two paths of two hops lead to `joined` (through left and
 * right). With the default decay 0.5:
 *   mid 1·0.9·0.5 = 0.45; target 0.45·0.8·0.5 = 0.18; distractor 1·0.2·0.5 = 0.1;
 *   left 1·0.6·0.5 = 0.3, right 1·0.4·0.5 = 0.2; joined 0.3·0.5·0.5 + 0.2·0.5·0.5 = 0.125.
 */
export const recallGraph: GraphFixture = {
  name: 'recall',
  memories: [
    { name: 'hit', key: 'recall-hit', title: 'Warmup spikes after deploy' },
    { name: 'mid', key: 'recall-mid', title: 'Cold caches on new pods' },
    { name: 'target', key: 'recall-target', title: 'Connection pool sizing' },
    { name: 'distractor', key: 'recall-distractor', title: 'Deploy calendar' },
    { name: 'left', key: 'recall-left', title: 'Readiness probe timing' },
    { name: 'right', key: 'recall-right', title: 'Load balancer slow start' },
    { name: 'joined', key: 'recall-joined', title: 'Traffic ramp policy' },
  ],
  edges: [
    { from: 'hit', to: 'mid', type: 'CAUSED_BY', weight: 0.9 },
    { from: 'mid', to: 'target', type: 'CAUSED_BY', weight: 0.8 },
    { from: 'hit', to: 'distractor', type: 'RELATES_TO', weight: 0.2 },
    { from: 'hit', to: 'left', type: 'RELATES_TO', weight: 0.6 },
    { from: 'hit', to: 'right', type: 'RELATES_TO', weight: 0.4 },
    { from: 'left', to: 'joined', type: 'RELATES_TO', weight: 0.5 },
    { from: 'right', to: 'joined', type: 'RELATES_TO', weight: 0.5 },
  ],
};

export interface RecalledView {
  memory: { key: string };
  score: number;
  lexical: number | null;
  vector: number | null;
  graph: number | null;
  seed: boolean;
  path: { id: string }[];
}

export interface RecallView {
  id: string | null;
  query: string | null;
  truncated: boolean;
  createdAt: string;
  expiresAt: string | null;
  results: RecalledView[];
}

export const RECALL_FIELDS =
  'id query truncated createdAt expiresAt results { memory { key } score lexical vector graph seed path { id } }';

/** Runs recall with the given argument text and returns its answer, failing on any error. */
export async function recallOf(
  app: TestApp,
  args: string,
  options?: { workspace?: string; headers?: Record<string, string> },
): Promise<RecallView> {
  const response = await app.gql(`{ recall(${args}) { ${RECALL_FIELDS} } }`, undefined, options);
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data?.recall as RecallView;
}

export const keysOf = (recall: RecallView): string[] => recall.results.map((result) => result.memory.key);

export const resultOf = (recall: RecallView, key: string): RecalledView => {
  const found = recall.results.find((result) => result.memory.key === key);
  if (!found) throw new Error(`${key} is not among the results: ${keysOf(recall).join(', ')}`);
  return found;
};
