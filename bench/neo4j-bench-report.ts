import type { Summary } from './lib/stats.js';

export interface Neo4jBenchRow {
  label: string;
  neo4j: Summary;
  sqlite: Summary;
  /** Neo4j median over SQLite median. */
  ratio: number;
  note?: string;
}

export interface Neo4jBenchResult {
  server: string;
  spec: { memories: number; edges: number; seed: number };
  import: {
    neo4jEdgesPerSecond: number;
    sqliteEdgesPerSecond: number;
    ratio: number;
    neo4jMs: number;
    sqliteMs: number;
  };
  /** Edges alone, into a workspace holding the memories: importBatch against a bare CREATE of the edges and their EdgeRefs. */
  edgeImport: { engramEdgesPerSecond: number; floorEdgesPerSecond: number };
  rows: Neo4jBenchRow[];
  /** Path by one Cypher shortestPath statement against the app's BFS over expandFrontier, on Neo4j. */
  shortestPathStatement: { bfs: Summary; statement: Summary; ratio: number; hopMismatches: number; pairs: number };
  /** Engram on Neo4j against the same answer by one raw Cypher statement (the floor of issue 27's targets). */
  rawFloors: { label: string; engram: Summary; raw: Summary; ratio: number }[];
  /**
   * Per GraphQL request on Neo4j: store calls, Bolt transactions and statements, and the Bolt round
   * trips a counting proxy saw (bolt-proxy.ts), with those of the same answer in raw Cypher.
   */
  roundTrips: {
    query: string;
    storeCalls: number;
    transactions: number;
    statements: number;
    boltRoundTrips: number;
    rawRoundTrips?: number;
  }[];
}

/** The rows as a table for the bench summary. */
export function renderNeo4jBench(result: Neo4jBenchResult): string {
  const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
  const lines = [
    `Neo4j vs SQLite (${result.server}; ${result.spec.memories.toLocaleString('en-US')} memories / ${result.spec.edges.toLocaleString('en-US')} edges + evidence edges)`,
    `${'operation'.padEnd(78)} ${'Neo4j p50'.padStart(10)} ${'SQLite p50'.padStart(11)} ${'ratio'.padStart(7)}`,
    ...result.rows.map(
      (row) =>
        `${row.label.padEnd(78)} ${fmt(row.neo4j.median).padStart(10)} ${fmt(row.sqlite.median).padStart(11)} ${`${row.ratio.toFixed(1)}x`.padStart(7)}`,
    ),
    `${'import (edges/s)'.padEnd(78)} ${Math.round(result.import.neo4jEdgesPerSecond).toLocaleString('en-US').padStart(10)} ${Math.round(result.import.sqliteEdgesPerSecond).toLocaleString('en-US').padStart(11)} ${`${result.import.ratio.toFixed(3)}x`.padStart(7)}`,
    `import on Neo4j, edges alone: ${Math.round(result.edgeImport.engramEdgesPerSecond).toLocaleString('en-US')} edges/s, a bare CREATE of the same edges and EdgeRefs ${Math.round(result.edgeImport.floorEdgesPerSecond).toLocaleString('en-US')} edges/s (${(result.edgeImport.engramEdgesPerSecond / result.edgeImport.floorEdgesPerSecond).toFixed(2)}x)`,
    `path on Neo4j, one shortestPath statement vs the BFS: ${fmt(result.shortestPathStatement.statement.median)} ms vs ${fmt(result.shortestPathStatement.bfs.median)} ms p50 (${result.shortestPathStatement.ratio.toFixed(2)}x), ${result.shortestPathStatement.hopMismatches} hop mismatches in ${result.shortestPathStatement.pairs} pairs`,
    ...result.rawFloors.map(
      (floor) =>
        `${floor.label}: ${fmt(floor.engram.median)} ms vs ${fmt(floor.raw.median)} ms p50 (${floor.ratio.toFixed(2)}x)`,
    ),
    'per GraphQL request on Neo4j (store calls / Bolt transactions / statements / Bolt round trips; raw Cypher round trips):',
    ...result.roundTrips.map(
      (trip) =>
        `  ${trip.query}: ${trip.storeCalls} / ${trip.transactions} / ${trip.statements} / ${trip.boltRoundTrips}${trip.rawRoundTrips === undefined ? '' : `; raw ${trip.rawRoundTrips}`}`,
    ),
  ];
  return lines.join('\n');
}
