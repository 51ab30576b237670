import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { isEngramError } from '../../src/domain/errors.js';
import { createNeo4jStore } from '../../src/store/neo4j/neo4j-store.js';
import type { GraphStore } from '../../src/store/port.js';
import { createSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { runStoreContract } from '../contract/run-contract.js';
import { createSqliteInspector } from '../contract/sqlite-harness.js';
import {
  type CapturedStatement,
  eventNode,
  memoryNode,
  RecordingDriver,
  type Row,
  relationship,
} from './recording-driver.js';
import { catalogTexts, declaredParameters, shapeOf, valuesInText } from './statement-checks.js';

/**
 * The whole shared contract suite, run against SQLite (which answers every assertion), with every
 * port call first replayed on a Neo4j store whose driver records statements. The Neo4j store's
 * answers are discarded: the point is to capture, for exactly the operations the contract suite
 * performs, every statement and parameter set the Neo4j store would send, and to check them all.
 * The canned answers follow the SQLite file where a branch depends on them (does the edge exist
 * already?), so both the create and the confirm paths of link are exercised.
 */

const captured: CapturedStatement[] = [];
const shadowFailures: { method: string; error: unknown }[] = [];
const methodsCalled = new Set<string>();

/** Canned rows for the statements whose answers steer the store; everything else gets no rows. */
function shadowResponder(db: Database.Database) {
  const memoryExists = (ws: unknown, id: unknown) =>
    db.prepare('SELECT 1 FROM memories WHERE workspace = ? AND id = ?').get(ws, id) !== undefined;
  return (statement: CapturedStatement): Row[] => {
    const p = statement.parameters;
    switch (statement.name.split(':')[0]) {
      case 'createMemory':
        return [
          {
            memory: memoryNode({ ...p, workspace: p.ws, key: p.key ?? undefined, createdAt: p.now, updatedAt: p.now }),
          },
        ];
      case 'linkPrepare': {
        const row = db
          .prepare(
            'SELECT id, weight, metadata, created_at, updated_at, last_confirmed_at FROM edges WHERE workspace = ? AND from_id = ? AND to_id = ? AND type = ?',
          )
          .get(p.ws, p.fromId, p.toId, p.type) as
          | {
              id: string;
              weight: number;
              metadata: string | null;
              created_at: string;
              updated_at: string;
              last_confirmed_at: string | null;
            }
          | undefined;
        const edge = row
          ? relationship(p.type as string, {
              id: row.id,
              weight: row.weight,
              metadata: row.metadata ?? undefined,
              createdAt: row.created_at,
              updatedAt: row.updated_at,
              lastConfirmedAt: row.last_confirmed_at ?? undefined,
            })
          : null;
        return [{ fromFound: memoryExists(p.ws, p.fromId), toFound: memoryExists(p.ws, p.toId), edge }];
      }
      case 'linkCreate':
        return [
          {
            edge: relationship(p.type as string, {
              id: p.id,
              weight: p.weight,
              metadata: p.metadata ?? undefined,
              createdAt: p.now,
              updatedAt: p.now,
            }),
            fromId: p.fromId,
            toId: p.toId,
          },
        ];
      case 'applyEdgeWeights':
      case 'applyMemoryWeights': {
        const edges = statement.name === 'applyEdgeWeights';
        return (p.changes as Row[]).map((change) => ({
          index: change.index,
          target: edges
            ? relationship('RELATED_TO', { id: change.targetId, weight: 0.5, createdAt: p.now, updatedAt: p.now })
            : memoryNode({ id: change.targetId, title: 'shadow', weight: 0.5, createdAt: p.now, updatedAt: p.now }),
          fromId: edges ? 'shadow-from' : null,
          toId: edges ? 'shadow-to' : null,
          event: eventNode({
            id: change.eventId,
            at: p.now,
            source: change.source,
            [edges ? 'edgeId' : 'memoryId']: change.targetId,
            oldWeight: 0.5,
            newWeight: 0.5,
            delta: 0,
            reason: change.reason ?? undefined,
          }),
          revertOk: true,
        }));
      }
      case 'importEdges':
        return [{ upserted: int((p.edges as Row[]).length) }];
      default:
        return [];
    }
  };
}

/**
 * Calls the shadow first (so canned answers see the state before the call), then the primary, whose
 * answer counts. A method the shadow lacks (the optional shortestPath) is not offered at all.
 */
function tee(primary: GraphStore, shadow: GraphStore): GraphStore {
  return new Proxy(primary, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof Reflect.get(shadow, property) !== 'function') return undefined;
      return async (...args: unknown[]) => {
        methodsCalled.add(String(property));
        try {
          await (Reflect.get(shadow, property) as (...inner: unknown[]) => Promise<unknown>).apply(shadow, args);
        } catch (error) {
          if (!isEngramError(error)) shadowFailures.push({ method: String(property), error });
        }
        return (value as (...inner: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}

runStoreContract('sqlite, replayed on the Neo4j store over a recording driver', {
  // The tee offers only what the shadow can replay.
  offersShortestPath: false,
  async create() {
    const dir = await mkdtemp(join(tmpdir(), 'engram-shadow-'));
    const path = join(dir, 'engram.db');
    const sqlite = createSqliteStore({ path });
    const db = new Database(path, { fileMustExist: true });
    const driver = new RecordingDriver(shadowResponder(db));
    const neo4j = createNeo4jStore({ driver, database: 'neo4j', label: 'recording', bookmarkManager: null });
    return {
      store: tee(sqlite, neo4j),
      inspect: createSqliteInspector(db),
      async cleanup() {
        captured.push(...driver.statements);
        await neo4j.close();
        await sqlite.close();
        db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
});

describe('what the Neo4j store sent for the whole contract suite', () => {
  it('never failed with anything but a coded EngramError', () => {
    expect(captured.length).toBeGreaterThan(500);
    expect(shadowFailures.map(({ method, error }) => `${method}: ${String(error)}`)).toEqual([]);
  });

  it('covered every port method the suite calls, each through a named transaction', () => {
    const ops = new Set(captured.map((statement) => statement.op));
    const silent = [...methodsCalled].filter((method) => method !== 'close' && !ops.has(method));
    expect(silent).toEqual([]);
    expect([...ops].sort()).toMatchInlineSnapshot(`
      [
        "applyWeightChanges",
        "associationCandidates",
        "bootstrapSchema",
        "countAdjacent",
        "createMemory",
        "deleteMemory",
        "deleteRecallCue",
        "edgesAmong",
        "edgesBetween",
        "embeddingDimensions",
        "expandFrontier",
        "findEdge",
        "findRecallCues",
        "getAdjacent",
        "getAdjacentPage",
        "getEdgeHistories",
        "getEdges",
        "getMemories",
        "getMemoriesWithAdjacent",
        "getRecall",
        "getSearchPages",
        "getWeightEvents",
        "hasEmbeddings",
        "importBatch",
        "linkEdge",
        "listEdges",
        "listEdgesByType",
        "listMemories",
        "listNewest",
        "listRecalls",
        "listWeightEvents",
        "memoriesNeedingEmbedding",
        "nearestMemories",
        "ping",
        "rankTargetsBySources",
        "saveRecall",
        "saveRecallCue",
        "saveSearchPages",
        "searchMemories",
        "setEmbeddings",
        "unlinkEdges",
        "updateMemory",
        "workspacesNeedingEmbedding",
      ]
    `);
  });

  it('put no user value (ids, keys, titles, metadata, search text, injection attempts) into statement text', () => {
    const leaks = captured.flatMap((statement) =>
      valuesInText(statement).map((value) => `${statement.name}: ${value}`),
    );
    expect([...new Set(leaks)]).toEqual([]);
  });

  it('sent only statements from cypher/ (equal up to validated, backtick-quoted relation types)', () => {
    const shapes = new Set(catalogTexts().map(shapeOf));
    const foreign = captured.filter((statement) => !shapes.has(shapeOf(statement.text)));
    expect(foreign.map((statement) => statement.text)).toEqual([]);
  });

  it('sent this set of statements (by mode and name)', () => {
    expect(
      [...new Set(captured.map((statement) => `${statement.mode} ${statement.name}`))].sort(),
    ).toMatchInlineSnapshot(`
      [
        "AUTOCOMMIT copyEdgeWeightsToRefs",
        "AUTOCOMMIT fillTagIndex",
        "AUTOCOMMIT ping",
        "AUTOCOMMIT queueEmbeddingBacklog",
        "READ adjacentEdges:BOTH",
        "READ adjacentEdges:BOTH+after",
        "READ adjacentEdges:BOTH+after+types",
        "READ adjacentEdges:BOTH+types",
        "READ adjacentEdges:INCOMING",
        "READ adjacentEdges:INCOMING+after",
        "READ adjacentEdges:INCOMING+types",
        "READ adjacentEdges:OUTGOING",
        "READ adjacentEdges:OUTGOING+after",
        "READ adjacentEdges:OUTGOING+after+types",
        "READ adjacentEdges:OUTGOING+types",
        "READ awaitIndexes",
        "READ awaitVectorIndex",
        "READ countAdjacent:BOTH",
        "READ countAdjacent:INCOMING",
        "READ countAdjacent:OUTGOING",
        "READ edgesAmong",
        "READ edgesBetween",
        "READ expandFrontier:BOTH",
        "READ expandFrontier:INCOMING",
        "READ expandFrontier:OUTGOING",
        "READ expandFrontierCapped:BOTH",
        "READ expandFrontierCapped:OUTGOING",
        "READ findEdge",
        "READ findRecallCues",
        "READ getEdgeHistories",
        "READ getEdges",
        "READ getMemories",
        "READ getMemoriesWithAdjacent:BOTH",
        "READ getMemoriesWithAdjacent:BOTH+types",
        "READ getMemoriesWithAdjacent:INCOMING",
        "READ getMemoriesWithAdjacent:OUTGOING",
        "READ getRecall",
        "READ getSearchPages",
        "READ getWeightEvents",
        "READ hasVectors",
        "READ listEdges",
        "READ listEdgesByType",
        "READ listMemories",
        "READ listMemoriesByKinds",
        "READ listMemoriesByKindsAfter",
        "READ listMemoriesByTags",
        "READ listMemoriesByTagsAfter",
        "READ listRecalls",
        "READ listRecallsAfter",
        "READ listWeightEvents:after",
        "READ listWeightEvents:all",
        "READ listWeightEvents:edgeId",
        "READ listWeightEvents:edgeId+after",
        "READ listWeightEvents:edgeId+source",
        "READ listWeightEvents:memoryId",
        "READ listWeightEvents:memoryId+after",
        "READ listWeightEvents:source",
        "READ listWeightEvents:source+after",
        "READ listingCutByKinds",
        "READ listingCutByKindsAfter",
        "READ listingCutByTags",
        "READ listingCutByTagsAfter",
        "READ migrationsDone",
        "READ nextQueuedWorkspace",
        "READ queuedMemories",
        "READ rankTargetsBySources",
        "READ searchMemories",
        "READ serverComponents",
        "READ termHolders",
        "READ vectorDimensions",
        "WRITE applyEdgeWeights",
        "WRITE applyMemoryWeights",
        "WRITE createMemory",
        "WRITE createRecall",
        "WRITE createRecallCue",
        "WRITE createSearchPages",
        "WRITE createVectorIndex",
        "WRITE deleteMemory",
        "WRITE deleteRecallCue",
        "WRITE deleteSameRecallCue",
        "WRITE embeddableMemories",
        "WRITE importEdges",
        "WRITE importMemories",
        "WRITE linkConfirm",
        "WRITE linkCreate",
        "WRITE linkPrepare",
        "WRITE markMigrationDone",
        "WRITE purgeRecalls",
        "WRITE purgeSearchPages",
        "WRITE replaceTerms",
        "WRITE schema:engram_edge_ref_from_rank",
        "WRITE schema:engram_edge_ref_from_type_rank",
        "WRITE schema:engram_edge_ref_id",
        "WRITE schema:engram_edge_ref_to_rank",
        "WRITE schema:engram_edge_ref_to_type_rank",
        "WRITE schema:engram_edge_ref_triple",
        "WRITE schema:engram_memory_embedding_queue",
        "WRITE schema:engram_memory_id",
        "WRITE schema:engram_memory_key",
        "WRITE schema:engram_memory_kind_created",
        "WRITE schema:engram_memory_tag",
        "WRITE schema:engram_memory_tag_memory",
        "WRITE schema:engram_memory_term_memory",
        "WRITE schema:engram_memory_term_term",
        "WRITE schema:engram_memory_text",
        "WRITE schema:engram_memory_text_by_workspace",
        "WRITE schema:engram_memory_vector",
        "WRITE schema:engram_recall_created",
        "WRITE schema:engram_recall_created_id",
        "WRITE schema:engram_recall_cue_id",
        "WRITE schema:engram_recall_cue_key",
        "WRITE schema:engram_recall_cue_memory",
        "WRITE schema:engram_recall_expiry",
        "WRITE schema:engram_recall_id",
        "WRITE schema:engram_search_pages_expiry",
        "WRITE schema:engram_search_pages_id",
        "WRITE schema:engram_vector_space",
        "WRITE schema:engram_weight_event_at",
        "WRITE schema:engram_weight_event_at_id",
        "WRITE schema:engram_weight_event_edge",
        "WRITE schema:engram_weight_event_edge_at_id",
        "WRITE schema:engram_weight_event_edge_source_at_id",
        "WRITE schema:engram_weight_event_id",
        "WRITE schema:engram_weight_event_memory",
        "WRITE schema:engram_weight_event_memory_at_id",
        "WRITE schema:engram_weight_event_memory_source_at_id",
        "WRITE schema:engram_weight_event_source_at_id",
        "WRITE trimRecallCues",
        "WRITE unlinkEdge:id",
        "WRITE unlinkEdge:triple",
        "WRITE updateMemory",
      ]
    `);
  });

  // Each shape sent is a catalog statement (above), which lint.test.ts parses and lints as Cypher 5
  // and 25 with every parameter it names declared. What only a real call can show is a parameter
  // the statement names and the store did not send.
  it('sent every parameter each statement names', () => {
    const missing = new Set<string>();
    for (const statement of captured)
      for (const name of Object.keys(declaredParameters(statement.text)))
        if (!(name in statement.parameters)) missing.add(`${statement.name}: $${name}`);
    expect([...missing]).toEqual([]);
  });
});
