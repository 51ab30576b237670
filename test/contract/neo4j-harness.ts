import { afterAll } from 'vitest';
import type { Json } from '../../src/domain/types.js';
import { createNeo4jDriver, type DriverLike, type RecordLike } from '../../src/store/neo4j/driver.js';
import type { Neo4jStoreOptions } from '../../src/store/neo4j/neo4j-store.js';
import { toNumber } from '../../src/store/neo4j/records.js';
import { clearNamespace, liveNeo4jConfig, openLiveNeo4jStore, runOn } from '../helpers/neo4j.js';
import type { RawEdge, RawWeightEvent, StoreHarness, StoreInspector } from './contract-kit.js';

/**
 * The live Neo4j harness (NEO4J_URI set, as `npm run test:neo4j` does): each test's store works in
 * workspaces of its own (test/helpers/neo4j.ts: `engram-test-<run>-<n>-<workspace>`) and deletes
 * exactly those afterwards. The inspector reads the graph with a driver of its own, relationships by
 * scanning, not through the adapter's EdgeRef lookup. Call it only when NEO4J_URI is set.
 */
export function neo4jHarness(options: Pick<Neo4jStoreOptions, 'expandPerRow'> = {}): StoreHarness & {
  query(text: string, parameters: Record<string, unknown>): Promise<RecordLike[]>;
  clear(prefix: string): Promise<void>;
} {
  const config = liveNeo4jConfig();
  let inspectorDriver: DriverLike | null = null;
  const direct = () => (inspectorDriver ??= createNeo4jDriver(config));

  /** Runs one statement of the inspector, bypassing the adapter. */
  const query = (text: string, parameters: Record<string, unknown>): Promise<RecordLike[]> =>
    runOn(direct(), config, text, parameters);

  const json = (value: unknown): Json | null => (typeof value === 'string' ? (JSON.parse(value) as Json) : null);
  const nullable = <T>(value: unknown): T | null => (value === undefined || value === null ? null : (value as T));

  const EDGE = `r.id AS id, a.id AS fromId, b.id AS toId, type(r) AS type, r.weight AS weight, r.metadata AS metadata, r.lastConfirmedAt AS lastConfirmedAt`;
  const toRawEdge = (record: RecordLike): RawEdge => ({
    id: record.get('id') as string,
    fromId: record.get('fromId') as string,
    toId: record.get('toId') as string,
    type: record.get('type') as string,
    weight: toNumber(record.get('weight'), 'weight'),
    metadata: json(record.get('metadata')),
    lastConfirmedAt: nullable<string>(record.get('lastConfirmedAt')),
  });

  /** Reads the graph directly: relationships by scanning, not through the adapter's EdgeRef lookup. */
  const inspector = (ns: (workspace: string) => string): StoreInspector => ({
    async countRows(kind, workspace) {
      const text = {
        memories: 'MATCH (m:Memory {workspace: $ws}) RETURN count(m) AS n',
        edges: 'MATCH (:Memory {workspace: $ws})-[r]->(:Memory) RETURN count(r) AS n',
        weight_events: 'MATCH (e:WeightEvent {workspace: $ws}) RETURN count(e) AS n',
        recall_cues: 'MATCH (c:RecallCue {workspace: $ws}) RETURN count(DISTINCT c.id) AS n',
      }[kind];
      const [record] = await query(text, { ws: ns(workspace) });
      return toNumber(record?.get('n'), 'n');
    },
    async rawMemory(workspace, id) {
      const [record] = await query(
        'MATCH (m:Memory {workspace: $ws, id: $id}) RETURN m.id AS id, m.key AS key, m.title AS title, m.content AS content, m.weight AS weight',
        { ws: ns(workspace), id },
      );
      if (!record) return null;
      return {
        id: record.get('id') as string,
        key: nullable<string>(record.get('key')),
        title: record.get('title') as string,
        content: nullable<string>(record.get('content')),
        weight: toNumber(record.get('weight'), 'weight'),
      };
    },
    async rawEdge(workspace, id) {
      const [record] = await query(
        `MATCH (a:Memory {workspace: $ws})-[r]->(b:Memory) WHERE r.id = $id RETURN ${EDGE}`,
        { ws: ns(workspace), id },
      );
      return record ? toRawEdge(record) : null;
    },
    async rawEdges(workspace) {
      return (
        await query(`MATCH (a:Memory {workspace: $ws})-[r]->(b:Memory) RETURN ${EDGE} ORDER BY id`, {
          ws: ns(workspace),
        })
      ).map(toRawEdge);
    },
    async rawWeightEvents(workspace) {
      const records = await query(
        `MATCH (e:WeightEvent {workspace: $ws})
         RETURN e.id AS id, e.edgeId AS edgeId, e.memoryId AS memoryId, e.source AS source, e.oldWeight AS old,
                e.newWeight AS new, e.delta AS delta, e.reason AS reason, e.revertedBy AS revertedBy
         ORDER BY id`,
        { ws: ns(workspace) },
      );
      return records.map(
        (record): RawWeightEvent => ({
          id: record.get('id') as string,
          edgeId: nullable<string>(record.get('edgeId')),
          memoryId: nullable<string>(record.get('memoryId')),
          source: record.get('source') as string,
          old: toNumber(record.get('old'), 'old'),
          new: toNumber(record.get('new'), 'new'),
          delta: toNumber(record.get('delta'), 'delta'),
          reason: nullable<string>(record.get('reason')),
          revertedBy: nullable<string>(record.get('revertedBy')),
        }),
      );
    },
  });

  const clear = (prefix: string) => clearNamespace(config, prefix, direct());

  afterAll(async () => {
    await inspectorDriver?.close();
  });

  return {
    // Path on Neo4j is the level-by-level walk; a one-call statement is only measured (bench/neo4j-bench.ts).
    offersShortestPath: false,
    /** A store in a namespace of its own; its prefix is deleted after each test. */
    async create() {
      const live = openLiveNeo4jStore(config, options);
      return { store: live.store, inspect: inspector(live.ns), cleanup: live.cleanup };
    },
    query,
    clear,
  };
}
