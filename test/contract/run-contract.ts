import { describe } from 'vitest';
import { adjacencyPageCases } from './cases/adjacency-pages.js';
import { associationCases } from './cases/associations.js';
import { edgeCases } from './cases/edges.js';
import { importCases } from './cases/import.js';
import { lifecycleCases } from './cases/lifecycle.js';
import { memoryCases } from './cases/memories.js';
import { recallCases } from './cases/recall.js';
import { recallCueCases } from './cases/recall-cues.js';
import { researchViewCases } from './cases/research-views.js';
import { searchCases } from './cases/search.js';
import { vectorCases } from './cases/vectors.js';
import { walkCases } from './cases/walks.js';
import { weightChangeCases } from './cases/weight-changes.js';
import { weightHistoryCases } from './cases/weight-history.js';
import { type StoreHarness, useStoreUnderTest } from './contract-kit.js';

/**
 * The one shared GraphStore contract (as Auth.js's runBasicTests): every store's runner file calls
 * it with a harness that makes a fresh store and an inspector reading the same backend directly.
 * Each area's cases live in cases/<area>.ts.
 */
export function runStoreContract(name: string, harness: StoreHarness): void {
  describe(`GraphStore contract: ${name}`, () => {
    const t = useStoreUnderTest(harness);
    lifecycleCases(t);
    memoryCases(t);
    edgeCases(t);
    walkCases(t, harness.offersShortestPath);
    adjacencyPageCases(t);
    weightHistoryCases(t);
    weightChangeCases(t);
    researchViewCases(t);
    importCases(t);
    recallCases(t);
    recallCueCases(t);
    associationCases(t);
    vectorCases(t);
    searchCases(t);
  });
}

/** The cases that read memories' edges in order (neighbours, pages, walks, research views), for a store variant that reads them another way. */
export function runAdjacencyContract(name: string, harness: StoreHarness): void {
  describe(`GraphStore contract, edges in order: ${name}`, () => {
    const t = useStoreUnderTest(harness);
    walkCases(t, harness.offersShortestPath);
    adjacencyPageCases(t);
    researchViewCases(t);
  });
}
