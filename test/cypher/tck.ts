import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngramError, type ErrorCode } from '../../src/domain/errors.js';
import { createNeo4jStore, type Neo4jStore } from '../../src/store/neo4j/neo4j-store.js';
import type { AdjacencyQuery, FrontierQuery } from '../../src/store/port.js';
import { FULL_TESTS } from '../helpers/full-tests.js';
import { type CapturedStatement, RecordingDriver, type Row, renderStatements } from './recording-driver.js';
import {
  catalogTexts,
  declaredParameters,
  describeDiagnostics,
  lintCypher,
  shapeOf,
  valuesInText,
} from './statement-checks.js';

/**
 * TCK-style tests (the statements-*.test.ts files): each drives one port method through the
 * recording driver with fixed inputs, snapshots every statement and its parameters inline, and
 * checks what the store made of the canned answer. Values that look like Cypher (quotes,
 * backticks, braces, `$ws`) are used throughout; afterEach proves none of them reached statement text.
 */

export const WS = 'ws-tck';
export const T0 = '2099-01-01T00:00:00.000Z';
export const T1 = '2099-01-01T00:00:01.000Z';
export const HOSTILE_TITLE = "x'}) MATCH (n) DETACH DELETE n //";
export const HOSTILE_KEY = 'key`]->() DETACH DELETE n';
export const HOSTILE_TEXT = '$ws }) RETURN 1 UNION MATCH (n) RETURN n //';
export const DIRECTIONS = ['OUTGOING', 'INCOMING', 'BOTH'] as const;

/** A memory whose every field looks like Cypher. */
export const newMemory = {
  id: 'm1',
  key: HOSTILE_KEY,
  title: HOSTILE_TITLE,
  content: 'Line one\nline "two"',
  kind: 'decision',
  tags: ['database', 'adr'],
  weight: 0.75,
  metadata: { note: '}) RETURN 1 //', nested: { list: [1, 'two', null] } },
};

type Handler = (statement: CapturedStatement) => Row[];

/** Answers by statement name (the part before `:`), everything else with no rows. */
export const answering =
  (handlers: Record<string, Handler>) =>
  (statement: CapturedStatement): Row[] =>
    handlers[statement.name.split(':')[0] as string]?.(statement) ?? [];

export const memoryProps = (id: string, extra: Row = {}): Row => ({
  workspace: WS,
  id,
  title: `Title of ${id}`,
  tags: [],
  tagsText: '',
  weight: 0.5,
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

export const edgeProps = (id: string, extra: Row = {}): Row => ({
  id,
  weight: 0.5,
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

export const eventProps = (id: string, extra: Row = {}): Row => ({
  workspace: WS,
  id,
  at: T1,
  source: 'CONSCIOUS',
  oldWeight: 0.5,
  newWeight: 0.2,
  delta: -0.3,
  ...extra,
});

export const adjacency = (query: Partial<AdjacencyQuery> = {}): AdjacencyQuery => ({
  direction: 'BOTH',
  types: null,
  minWeight: null,
  includePruned: false,
  pruneThreshold: 0.05,
  limitPerMemory: null,
  ...query,
});

export const frontier = (query: Partial<FrontierQuery> = {}): FrontierQuery => ({
  direction: 'BOTH',
  types: null,
  pruneThreshold: 0.05,
  budget: 10,
  ...query,
});

export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<EngramError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(EngramError);
  expect((error as EngramError).code).toBe(code);
  return error as EngramError;
}

export interface RecordingStore {
  readonly driver: RecordingDriver;
  readonly store: Neo4jStore;
  /** What this test's calls sent, rendered for a snapshot. */
  sent(): string;
  /** What this test's calls sent from statement `from` on (one call of several in a test). */
  sentSince(from: number): string;
  /** `<mode> <name>` of each statement this test sent. */
  names(): string[];
}

/**
 * A fresh store over a recording driver for each test of the file, its schema bootstrapped and
 * the bootstrap forgotten. After each test, every statement sent is checked: no user value in its
 * text, and its shape is one of cypher/'s statements. The file's statements are kept for
 * `describeEverySentStatement`, which the file calls last.
 */
export function useRecordingStore(): RecordingStore & { everyStatement: CapturedStatement[] } {
  const catalogShapes = new Set(catalogTexts().map(shapeOf));
  const everyStatement: CapturedStatement[] = [];
  let driver: RecordingDriver;
  let store: Neo4jStore;

  beforeEach(async () => {
    driver = new RecordingDriver();
    store = createNeo4jStore({ driver, database: 'engram', label: 'recording', bookmarkManager: null });
    await store.ensureSchema();
    driver.clear();
  });

  afterEach(() => {
    for (const statement of driver.statements) {
      expect(valuesInText(statement), `${statement.name} carries a user value in its text`).toEqual([]);
      expect(catalogShapes.has(shapeOf(statement.text)), `${statement.name} is not a cypher/ statement`).toBe(true);
    }
    everyStatement.push(...driver.statements);
  });

  return {
    everyStatement,
    get driver() {
      return driver;
    },
    get store() {
      return store;
    },
    sent: () => renderStatements(driver.statements),
    sentSince: (from) => renderStatements(driver.statements.slice(from)),
    names: () => driver.statements.map((statement) => `${statement.mode} ${statement.name}`),
  };
}

/** Lints every distinct statement the file's tests sent, with the parameters it was sent with. */
export function describeEverySentStatement(everyStatement: CapturedStatement[], distinctAtLeast: number): void {
  describe('every statement sent by these tests', () => {
    afterAll(() => {
      everyStatement.length = 0;
    });

    /** One of each statement text sent with the same parameter names. */
    const distinct = (): CapturedStatement[] => {
      const seen = new Map<string, CapturedStatement>();
      for (const statement of everyStatement)
        seen.set(`${statement.text}\n${Object.keys(statement.parameters).sort().join(',')}`, statement);
      return [...seen.values()];
    };

    it('sends the distinct statements it is meant to cover', () => {
      expect(distinct().length).toBeGreaterThanOrEqual(distinctAtLeast);
    });

    // With the values sent, in npm run test:full (CI): the front end takes about a millisecond per
    // character, 47 s over these files' statements in npm test, which lint.test.ts already lints
    // without values (the longest variant of each statement; every variant in test:full).
    it.runIf(FULL_TESTS)(
      'parses and lints as Cypher 5 with the parameters it was sent with',
      { timeout: 300_000 },
      () => {
        for (const statement of distinct()) {
          expect(describeDiagnostics(lintCypher(statement.text, statement.parameters)), statement.name).toEqual([]);
        }
      },
    );

    it('declares every parameter a statement uses (the catalogue lint only declares them)', () => {
      for (const statement of everyStatement) {
        const used = Object.keys(declaredParameters(statement.text));
        expect(
          used.filter((name) => !(name in statement.parameters)),
          statement.name,
        ).toEqual([]);
      }
    });
  });
}
