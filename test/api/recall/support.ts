import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.js';

export { recallGraph } from '../../fixtures/recall-graph.js';

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
