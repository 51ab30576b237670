import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Json } from '../../src/domain/types.js';
import { createNeo4jDriver, type DriverLike, type RecordLike } from '../../src/store/neo4j/driver.js';
import { toNumber } from '../../src/store/neo4j/records.js';
import { chain, seedGraph, star } from '../fixtures/graphs.js';
import { clearNamespace, liveNeo4jConfig, openLiveNeo4jStore, runOn } from '../helpers/neo4j.js';
import { runIntelligenceContract } from './intelligence.contract.js';
import {
  runGraphStoreContract,
  type GraphStoreHarness,
  type RawEdge,
  type RawWeightEvent,
  type StoreInspector,
} from './graph-store.contract.js';

/**
 * The shared contract suite against a real Neo4j 5 / Aura, when NEO4J_URI is set (with NEO4J_USER,
 * NEO4J_PASSWORD, NEO4J_DATABASE as for the server); `npm run test:neo4j` starts a server and sets
 * them. Every test works in workspaces of its own (test/helpers/neo4j.ts: `engram-test-<run>-<n>-
 * <workspace>`) and deletes exactly those afterwards: nothing else in the database is read or touched.
 */

if (!process.env.NEO4J_URI) {
  console.warn('SKIPPED: Neo4j contract suite (set NEO4J_URI to run it against a real Neo4j 5)');
  describe('GraphStore contract: neo4j', () => {
    it.skip('runs the shared contract suite against a real Neo4j 5 when NEO4J_URI is set', () => {});
  });
} else {
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

  /** A store in a namespace of its own; its prefix is deleted after each test. */
  const open = openLiveNeo4jStore;
  const clear = (prefix: string) => clearNamespace(config, prefix, direct());

  afterAll(async () => {
    await inspectorDriver?.close();
  });

  const neo4jHarness: GraphStoreHarness = {
    async create() {
      const live = open(config);
      return { store: live.store, inspect: inspector(live.ns), cleanup: live.cleanup };
    },
  };
  runGraphStoreContract('neo4j', neo4jHarness);
  runIntelligenceContract('neo4j', neo4jHarness);

  describe('Neo4j store: what only a real server can show', () => {
    it('creates its constraints and indexes, idempotently, and reports the server', async () => {
      const { raw, prefix } = open();
      try {
        const info = await raw.ensureSchema();
        expect(info.version).toMatch(/^\d+\.\d+/);
        await raw.close();
        const again = open();
        await again.raw.ensureSchema();
        await again.raw.close();
        const names = (await query('SHOW INDEXES YIELD name RETURN name', {})).map(
          (record) => record.get('name') as string,
        );
        for (const name of [
          'engram_memory_id',
          'engram_memory_key',
          'engram_edge_ref_id',
          'engram_edge_ref_triple',
          'engram_weight_event_id',
          'engram_memory_text',
        ]) {
          expect(names).toContain(name);
        }
      } finally {
        await clear(prefix);
      }
    });

    it('keeps exactly one EdgeRef per relationship through link, unlink, delete and import', async () => {
      const { store, ns, prefix } = open();
      try {
        const g = await seedGraph(store, 'refs', star);
        await seedGraph(store, 'refs', chain);
        await store.unlinkEdges('refs', { id: g.edge('hub', 's1').id });
        await store.deleteMemory('refs', g.id('s6'));
        await store.importBatch(
          'refs',
          {
            memories: [],
            edges: [
              { id: randomUUID(), fromId: g.id('s2'), toId: g.id('s3'), type: 'EXTENDS', weight: 0.4, metadata: null },
            ],
          },
          new Date().toISOString(),
        );
        const [record] = await query(
          `MATCH (a:Memory {workspace: $ws})-[r]->(b:Memory)
           OPTIONAL MATCH (k:EdgeRef {workspace: $ws, id: r.id})
           WITH count(r) AS relationships, count(CASE WHEN k.fromId = a.id AND k.toId = b.id AND k.type = type(r) THEN 1 END) AS matched
           MATCH (k:EdgeRef {workspace: $ws})
           RETURN relationships, matched, count(k) AS refs`,
          { ws: ns('refs') },
        );
        const [relationships, matched, refs] = ['relationships', 'matched', 'refs'].map((key) =>
          toNumber(record?.get(key), key),
        );
        expect(relationships).toBe(star.edges.length + chain.edges.length - 2 + 1);
        expect(matched).toBe(relationships);
        expect(refs).toBe(relationships);
      } finally {
        await store.close();
        await clear(prefix);
      }
    });

    it('leaves no lock property behind on memories', async () => {
      const { store, ns, prefix } = open();
      try {
        await seedGraph(store, 'locks', chain);
        const [record] = await query(
          'MATCH (m:Memory {workspace: $ws}) WHERE m._engramLock IS NOT NULL RETURN count(m) AS n',
          { ws: ns('locks') },
        );
        expect(toNumber(record?.get('n'), 'n')).toBe(0);
      } finally {
        await store.close();
        await clear(prefix);
      }
    });
  });
}
