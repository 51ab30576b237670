import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toNumber } from '../../src/store/neo4j/records.js';
import { edgeChange, set } from '../contract/contract-kit.js';
import { neo4jHarness } from '../contract/neo4j-harness.js';
import { chain, seedGraph, star } from '../fixtures/graphs.js';
import { openLiveNeo4jStore } from '../helpers/neo4j.js';

/** What only a real Neo4j server can show, beside the shared contract suite (test/contract/neo4j.contract.test.ts). */

if (!process.env.NEO4J_URI) {
  console.warn('SKIPPED: Neo4j store against a live server (run `npm run test:neo4j`)');
  describe('Neo4j store: what only a real server can show', () => {
    it.skip('checks schema, EdgeRefs and locks on a real Neo4j 5 when NEO4J_URI is set', () => {});
  });
} else {
  const { query, clear } = neo4jHarness();
  const open = openLiveNeo4jStore;

  describe('Neo4j store: what only a real server can show', () => {
    it('creates its constraints and indexes, idempotently, and reports the server', async () => {
      const { raw, prefix } = open();
      try {
        // Earlier versions' full-text index, without the workspace.
        await query(
          'CREATE FULLTEXT INDEX engram_memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.title, m.content, m.tagsText]',
          {},
        );
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
          'engram_edge_ref_from_rank',
          'engram_edge_ref_to_rank',
          'engram_edge_ref_from_type_rank',
          'engram_edge_ref_to_type_rank',
          'engram_weight_event_id',
          'engram_memory_tag',
          'engram_memory_tag_memory',
          'engram_memory_text_by_workspace',
        ]) {
          expect(names).toContain(name);
        }
        // The full-text index of earlier versions, without the workspace, is dropped.
        expect(names).not.toContain('engram_memory_text');
      } finally {
        await clear(prefix);
      }
    });

    it('queues, once per database, the memories an earlier version stored without the embedding queue', async () => {
      const { raw, store, ns, prefix } = open();
      try {
        await raw.ensureSchema();
        const old = { workspace: ns('old'), id: randomUUID(), title: 'stored before vectors', tags: [], weight: 0.5 };
        await query('CREATE (m:Memory) SET m = $old, m.tagsText = "", m.createdAt = $at, m.updatedAt = $at', {
          old,
          at: '2020-01-01T00:00:00.000Z',
        });
        expect(await store.memoriesNeedingEmbedding('old', 5)).toEqual([]);
        await query("MATCH (d:EngramMigration {name: 'embeddingBacklog'}) DELETE d", {});
        const restarted = open();
        await restarted.raw.ensureSchema();
        await restarted.raw.close();
        expect((await store.memoriesNeedingEmbedding('old', 5)).map((memory) => memory.id)).toEqual([old.id]);
        expect(await query("MATCH (d:EngramMigration {name: 'embeddingBacklog'}) RETURN d", {})).toHaveLength(1);
      } finally {
        await raw.close();
        await clear(prefix);
      }
    });

    it('copies the weight into EdgeRefs an earlier version wrote without it, once per database', async () => {
      const { raw, store, ns, prefix } = open();
      try {
        await raw.ensureSchema();
        await seedGraph(store, 'old', star);
        const refsWithTheirWeight = async () => {
          const [record] = await query(
            `MATCH (a:Memory {workspace: $ws})-[r]->(b:Memory), (k:EdgeRef {workspace: $ws, id: r.id})
             RETURN count(CASE WHEN k.negWeight = -r.weight THEN 1 END) AS n`,
            { ws: ns('old') },
          );
          return toNumber(record?.get('n'), 'n');
        };
        expect(await refsWithTheirWeight()).toBe(star.edges.length);
        await query('MATCH (k:EdgeRef {workspace: $ws}) REMOVE k.negWeight', { ws: ns('old') });
        expect(await refsWithTheirWeight()).toBe(0);
        await query("MATCH (d:EngramMigration {name: 'edgeRefWeights'}) DELETE d", {});
        const restarted = open();
        await restarted.raw.ensureSchema();
        await restarted.raw.close();
        expect(await refsWithTheirWeight()).toBe(star.edges.length);
        expect(await query("MATCH (d:EngramMigration {name: 'edgeRefWeights'}) RETURN d", {})).toHaveLength(1);
      } finally {
        await raw.close();
        await clear(prefix);
      }
    });

    it('builds the tag index for memories an earlier version stored without it, once per database', async () => {
      const { raw, store, ns, prefix } = open();
      try {
        await raw.ensureSchema();
        const at = '2020-01-01T00:00:00.000Z';
        for (const [id, tags] of [
          ['a', ['ops', 'cache']],
          ['b', ['ops']],
        ] as const) {
          await query('CREATE (m:Memory) SET m = $old, m.tagsText = "", m.createdAt = $at, m.updatedAt = $at', {
            old: { workspace: ns('old'), id, title: id, tags, weight: 0.5 },
            at,
          });
        }
        const listed = async (tag: string) =>
          (
            await store.searchMemories('old', {
              text: '',
              kinds: null,
              tags: [tag],
              limit: 10,
              currentOnly: false,
              pruneThreshold: 0.05,
            })
          ).map((memory) => memory.id);
        expect(await listed('ops')).toEqual([]);
        await query("MATCH (d:EngramMigration {name: 'tagIndex'}) DELETE d", {});
        const restarted = open();
        await restarted.raw.ensureSchema();
        await restarted.raw.close();
        expect(await listed('ops')).toEqual(['b', 'a']);
        expect(await listed('cache')).toEqual(['a']);
        expect(await query("MATCH (d:EngramMigration {name: 'tagIndex'}) RETURN d", {})).toHaveLength(1);
      } finally {
        await raw.close();
        await clear(prefix);
      }
    });

    it('keeps exactly one EdgeRef per relationship, with its weight, through link, unlink, delete, import and weight changes', async () => {
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
        await store.applyWeightChanges(
          'refs',
          [edgeChange(g.edge('hub', 's2').id, set(0.91)), edgeChange(g.edge('hub', 's3').id, set(0.02))],
          { floor: 0, ceiling: 1 },
          new Date().toISOString(),
        );
        const [record] = await query(
          `MATCH (a:Memory {workspace: $ws})-[r]->(b:Memory)
           OPTIONAL MATCH (k:EdgeRef {workspace: $ws, id: r.id})
           WITH count(r) AS relationships,
             count(CASE WHEN k.fromId = a.id AND k.toId = b.id AND k.type = type(r) AND k.negWeight = -r.weight THEN 1 END) AS matched
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
