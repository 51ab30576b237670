import { describe, expect, it } from 'vitest';
import { memoryNode, relationship } from './recording-driver.js';
import {
  answering,
  describeEverySentStatement,
  edgeProps,
  HOSTILE_KEY,
  HOSTILE_TEXT,
  memoryProps,
  T0,
  useRecordingStore,
  WS,
} from './tck.js';

/** TCK (see tck.ts): Reads of memories and edges by id, key, triple, text and page. */

const tck = useRecordingStore();

describe('reads: memories and edges', () => {
  it('getMemories: one statement for every reference, answers in key order with null for misses', async () => {
    tck.driver.respond = answering({
      getMemories: () => [
        { ref: 'm1', memory: memoryNode(memoryProps('m1')) },
        { ref: HOSTILE_KEY, memory: memoryNode(memoryProps('m2', { key: HOSTILE_KEY })) },
      ],
    });
    const result = await tck.store.getMemories(WS, ['m1', 'missing', HOSTILE_KEY, 'm1']);
    expect(result.map((memory) => memory?.id ?? null)).toEqual(['m1', null, 'm2', 'm1']);
    expect(tck.driver.statements[0]?.parameters.refs).toEqual(['m1', 'missing', HOSTILE_KEY]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ getMemories (op getMemories)
      \`\`\`cypher
      // engram:getMemories
      UNWIND $refs AS ref
      OPTIONAL MATCH (byId:Memory {workspace: $ws, id: ref})
      OPTIONAL CALL (ref, byId) {
        WITH ref, byId
        WHERE byId IS NULL
        MATCH (byKey:Memory {workspace: $ws, key: ref})
        RETURN byKey
      }
      WITH ref, coalesce(byId, byKey) AS memory
      WHERE memory IS NOT NULL
      RETURN ref, memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "refs": [
          "m1",
          "missing",
          "key\`]->() DETACH DELETE n"
        ]
      }
      \`\`\`"
    `);
  });

  it('getMemories: sends nothing for no references', async () => {
    expect(await tck.store.getMemories(WS, [])).toEqual([]);
    expect(tck.driver.statements).toEqual([]);
  });

  it('getEdges: one statement through the EdgeRef lookup, in key order', async () => {
    tck.driver.respond = answering({
      getEdges: () => [{ edgeId: 'e2', edge: relationship('CITES', edgeProps('e2')), fromId: 'a', toId: 'b' }],
    });
    const result = await tck.store.getEdges(WS, ['e1', 'e2']);
    expect(result).toEqual([null, expect.objectContaining({ id: 'e2', type: 'CITES', fromId: 'a', toId: 'b' })]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ getEdges (op getEdges)
      \`\`\`cypher
      // engram:getEdges
      UNWIND $ids AS edgeId
      MATCH (k:EdgeRef {workspace: $ws, id: edgeId})
      MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
      WHERE r.id = edgeId
      RETURN edgeId, r AS edge, a.id AS fromId, b.id AS toId
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "e1",
          "e2"
        ]
      }
      \`\`\`"
    `);
  });

  it('findEdge: one statement with the type as a parameter', async () => {
    tck.driver.respond = answering({
      findEdge: () => [{ edge: relationship('EXTENDS', edgeProps('e1')), fromId: 'a', toId: 'b' }],
    });
    expect(await tck.store.findEdge(WS, 'a', 'b', 'EXTENDS')).toMatchObject({ id: 'e1', type: 'EXTENDS' });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ findEdge (op findEdge)
      \`\`\`cypher
      // engram:findEdge
      MATCH (a:Memory {workspace: $ws, id: $fromId})-[r]->(b:Memory {workspace: $ws, id: $toId})
      WHERE type(r) = $type
      RETURN r AS edge, a.id AS fromId, b.id AS toId
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "fromId": "a",
        "toId": "b",
        "type": "EXTENDS"
      }
      \`\`\`"
    `);
  });

  it('edgesBetween: one statement, both directions, types as a parameter', async () => {
    tck.driver.respond = answering({
      edgesBetween: () => [{ edge: relationship('CONTRADICTS', edgeProps('e3')), fromId: 'b', toId: 'a' }],
    });
    expect(await tck.store.edgesBetween(WS, 'a', 'b', ['CITES', 'CONTRADICTS'])).toEqual([
      expect.objectContaining({ id: 'e3', fromId: 'b', toId: 'a' }),
    ]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ edgesBetween (op edgesBetween)
      \`\`\`cypher
      // engram:edgesBetween
      MATCH (a:Memory {workspace: $ws, id: $aId})-[r]-(b:Memory {workspace: $ws, id: $bId})
      WHERE $types IS NULL OR type(r) IN $types
      RETURN r AS edge, startNode(r).id AS fromId, endNode(r).id AS toId
      ORDER BY r.weight DESC, r.id ASC
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "aId": "a",
        "bId": "b",
        "types": [
          "CITES",
          "CONTRADICTS"
        ]
      }
      \`\`\`"
    `);
  });

  it('searchMemories: every rank tier in one statement, each escaped Lucene query a parameter like kinds, tags and limit', async () => {
    tck.driver.respond = answering({ searchMemories: () => [{ memory: memoryNode(memoryProps('m1')) }] });
    const found = await tck.store.searchMemories(WS, {
      text: `Postgres "store ${HOSTILE_TEXT}`,
      kinds: ['decision'],
      tags: ['database'],
      limit: 5,
      currentOnly: true,
      pruneThreshold: 0.05,
    });
    expect(found.map((memory) => memory.id)).toEqual(['m1']);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ searchMemories (op searchMemories)
      \`\`\`cypher
      // engram:searchMemories
      WITH [] AS found
      CALL (found) {
        WITH found
        WHERE size(found) < $limit AND size($queries) > 0
        CALL db.index.fulltext.queryNodes('engram_memory_text_by_workspace', $queries[0], {limit: $ranked}) YIELD node, score
        WHERE node.workspace = $ws
          AND NOT node IN found
          AND ($kinds IS NULL OR node.kind IN $kinds)
          AND ($tags IS NULL OR any(tag IN node.tags WHERE tag IN $tags))
          AND ($currentOnly = false OR NOT EXISTS {
            MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
          })
        WITH node, score
        ORDER BY score DESC, node.weight DESC, node.id ASC
        LIMIT $limit
        RETURN collect(node) AS more
      }
      WITH found + more AS found
      CALL (found) {
        WITH found
        WHERE size(found) < $limit AND size($queries) > 1
        CALL db.index.fulltext.queryNodes('engram_memory_text_by_workspace', $queries[1], {limit: $ranked}) YIELD node, score
        WHERE node.workspace = $ws
          AND NOT node IN found
          AND ($kinds IS NULL OR node.kind IN $kinds)
          AND ($tags IS NULL OR any(tag IN node.tags WHERE tag IN $tags))
          AND ($currentOnly = false OR NOT EXISTS {
            MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
          })
        WITH node, score
        ORDER BY score DESC, node.weight DESC, node.id ASC
        LIMIT $limit
        RETURN collect(node) AS more
      }
      WITH found + more AS found
      CALL (found) {
        WITH found
        WHERE size(found) < $limit AND size($queries) > 2
        CALL db.index.fulltext.queryNodes('engram_memory_text_by_workspace', $queries[2], {limit: $ranked}) YIELD node, score
        WHERE node.workspace = $ws
          AND NOT node IN found
          AND ($kinds IS NULL OR node.kind IN $kinds)
          AND ($tags IS NULL OR any(tag IN node.tags WHERE tag IN $tags))
          AND ($currentOnly = false OR NOT EXISTS {
            MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
          })
        WITH node, score
        ORDER BY score DESC, node.weight DESC, node.id ASC
        LIMIT $limit
        RETURN collect(node) AS more
      }
      WITH found + more AS found
      UNWIND found[..$limit] AS memory
      RETURN memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "kinds": [
          "decision"
        ],
        "currentOnly": true,
        "pruneThreshold": 0.05,
        "queries": [
          "+workspace:\\"ws-tck\\" +(title:(+postgres +store +ws +return +1 +union +match +return*))",
          "+workspace:\\"ws-tck\\" +(+(title:(postgres)^4 content:(postgres) tagsText:(postgres)^2) +(title:(store)^4 content:(store) tagsText:(store)^2) +(title:(ws)^4 content:(ws) tagsText:(ws)^2) +(title:(return)^4 content:(return) tagsText:(return)^2) +(title:(1)^4 content:(1) tagsText:(1)^2) +(title:(union)^4 content:(union) tagsText:(union)^2) +(title:(match)^4 content:(match) tagsText:(match)^2) +(title:(return*)^4 content:(return*) tagsText:(return*)^2))",
          "+workspace:\\"ws-tck\\" +(title:(postgres OR store OR ws OR return OR 1 OR union OR match OR return*)^4 OR content:(postgres OR store OR ws OR return OR 1 OR union OR match OR return*) OR tagsText:(postgres OR store OR ws OR return OR 1 OR union OR match OR return*)^2)"
        ],
        "ranked": "int(1000)",
        "tags": [
          "database"
        ],
        "limit": "int(5)"
      }
      \`\`\`"
    `);
  });

  it('searchMemories without words: by tags and by kinds, each along its own index', async () => {
    tck.driver.respond = answering({
      listMemoriesByTags: () => [{ value: 'Warm-up', memory: memoryNode(memoryProps('m1')) }],
      listMemoriesByKinds: () => [{ value: 'decision', memory: memoryNode(memoryProps('m2')) }],
      listMemoriesByKindsAfter: () => [{ value: 'decision', memory: memoryNode(memoryProps('m3')) }],
      // Every walk came back short; the first kinds walk was cut by the scan bound.
      listingCutByKinds: () => [{ value: 'decision', createdAt: T0, id: 'm0' }],
    });
    const listing = { text: ' ', limit: 5, currentOnly: false, pruneThreshold: 0.05 };
    const byTags = await tck.store.searchMemories(WS, { ...listing, kinds: null, tags: ['Warm-up', HOSTILE_TEXT] });
    const byKinds = await tck.store.searchMemories(WS, { ...listing, kinds: ['decision', 'decision'], tags: null });
    const laterPage = await tck.store.searchMemories(WS, {
      ...listing,
      kinds: ['decision'],
      tags: null,
      listedAfter: { createdAt: T0, id: HOSTILE_TEXT },
    });
    expect([...byTags, ...byKinds, ...laterPage].map((memory) => memory.id)).toEqual(['m1', 'm2', 'm3']);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ listMemoriesByTags (op listNewest)
      \`\`\`cypher
      // engram:listMemoriesByTags
      UNWIND $tags AS tag
      CALL (tag) {
        MATCH (t:MemoryTag {workspace: $ws, tag: tag})
        WHERE t.createdAt IS NOT NULL AND t.memoryId IS NOT NULL
        WITH t
        ORDER BY t.workspace DESC, t.tag DESC, t.createdAt DESC, t.memoryId DESC
        LIMIT $scan
        MATCH (node:Memory {workspace: $ws, id: t.memoryId})
        WHERE ($kinds IS NULL OR node.kind IN $kinds) AND ($currentOnly = false OR NOT EXISTS {
          MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
        })
        RETURN node
        LIMIT $limit
      }
      RETURN tag AS value, node AS memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "kinds": null,
        "currentOnly": false,
        "pruneThreshold": 0.05,
        "tags": [
          "Warm-up",
          "$ws }) RETURN 1 UNION MATCH (n) RETURN n //"
        ],
        "limit": "int(5)",
        "scan": "int(1000)"
      }
      \`\`\`

      # READ listingCutByTags (op listNewest)
      \`\`\`cypher
      // engram:listingCutByTags
      UNWIND $values AS tag
      CALL (tag) {
        MATCH (t:MemoryTag {workspace: $ws, tag: tag})
        WHERE t.createdAt IS NOT NULL AND t.memoryId IS NOT NULL
        WITH t
        ORDER BY t.workspace DESC, t.tag DESC, t.createdAt DESC, t.memoryId DESC
        SKIP $skip LIMIT 1
        RETURN t.createdAt AS createdAt, t.memoryId AS id
      }
      RETURN tag AS value, createdAt, id
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "values": [
          "Warm-up",
          "$ws }) RETURN 1 UNION MATCH (n) RETURN n //"
        ],
        "skip": "int(999)"
      }
      \`\`\`

      # READ listMemoriesByKinds (op listNewest)
      \`\`\`cypher
      // engram:listMemoriesByKinds
      UNWIND $kinds AS kind
      CALL (kind) {
        MATCH (node:Memory {workspace: $ws, kind: kind})
        WHERE node.createdAt IS NOT NULL AND node.id IS NOT NULL
        WITH node
        ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
        LIMIT $scan
        WITH node
        WHERE ($currentOnly = false OR NOT EXISTS {
          MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
        })
        RETURN node
        LIMIT $limit
      }
      RETURN kind AS value, node AS memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "kinds": [
          "decision"
        ],
        "currentOnly": false,
        "pruneThreshold": 0.05,
        "limit": "int(5)",
        "scan": "int(1000)"
      }
      \`\`\`

      # READ listingCutByKinds (op listNewest)
      \`\`\`cypher
      // engram:listingCutByKinds
      UNWIND $values AS kind
      CALL (kind) {
        MATCH (node:Memory {workspace: $ws, kind: kind})
        WHERE node.createdAt IS NOT NULL AND node.id IS NOT NULL
        WITH node
        ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
        SKIP $skip LIMIT 1
        RETURN node.createdAt AS createdAt, node.id AS id
      }
      RETURN kind AS value, createdAt, id
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "values": [
          "decision"
        ],
        "skip": "int(999)"
      }
      \`\`\`

      # READ listMemoriesByKindsAfter (op listNewest)
      \`\`\`cypher
      // engram:listMemoriesByKindsAfter
      UNWIND $kinds AS kind
      CALL (kind) {
        CALL (kind) {
        MATCH (node:Memory {workspace: $ws, kind: kind})
        WHERE node.createdAt = $afterCreatedAt AND node.id < $afterId
        WITH node
        ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
        LIMIT $scan
        WITH node
        WHERE ($currentOnly = false OR NOT EXISTS {
          MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
        })
        RETURN node
        LIMIT $limit
          UNION
        MATCH (node:Memory {workspace: $ws, kind: kind})
        WHERE node.createdAt < $afterCreatedAt AND node.id IS NOT NULL
        WITH node
        ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
        LIMIT $scan
        WITH node
        WHERE ($currentOnly = false OR NOT EXISTS {
          MATCH (node)<-[s:SUPERSEDES]-(:Memory) WHERE s.weight > $pruneThreshold
        })
        RETURN node
        LIMIT $limit
        }
        RETURN node
        ORDER BY node.createdAt DESC, node.id DESC
        LIMIT $limit
      }
      RETURN kind AS value, node AS memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "kinds": [
          "decision"
        ],
        "currentOnly": false,
        "pruneThreshold": 0.05,
        "afterCreatedAt": "2099-01-01T00:00:00.000Z",
        "afterId": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
        "limit": "int(5)",
        "scan": "int(1000)"
      }
      \`\`\`

      # READ listingCutByKindsAfter (op listNewest)
      \`\`\`cypher
      // engram:listingCutByKindsAfter
      UNWIND $values AS kind
      CALL (kind) {
        CALL (kind) {
        MATCH (node:Memory {workspace: $ws, kind: kind})
        WHERE node.createdAt = $afterCreatedAt AND node.id < $afterId
        WITH node
        ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
        LIMIT $scan
        RETURN node
          UNION
        MATCH (node:Memory {workspace: $ws, kind: kind})
        WHERE node.createdAt < $afterCreatedAt AND node.id IS NOT NULL
        WITH node
        ORDER BY node.workspace DESC, node.kind DESC, node.createdAt DESC, node.id DESC
        LIMIT $scan
        RETURN node
        }
        WITH node
        ORDER BY node.createdAt DESC, node.id DESC
        SKIP $skip
        LIMIT 1
        RETURN node.createdAt AS createdAt, node.id AS id
      }
      RETURN kind AS value, createdAt, id
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "afterCreatedAt": "2099-01-01T00:00:00.000Z",
        "afterId": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
        "values": [
          "decision"
        ],
        "scan": "int(1000)",
        "skip": "int(999)"
      }
      \`\`\`"
    `);
  });

  it('searchMemories: sends nothing when no word is left to search', async () => {
    expect(
      await tck.store.searchMemories(WS, {
        text: '"*?!',
        kinds: null,
        tags: null,
        limit: 5,
        currentOnly: false,
        pruneThreshold: 0.05,
      }),
    ).toEqual([]);
    expect(tck.driver.statements).toEqual([]);
  });

  it('listMemories and listEdges: keyset pages after an id ("" for the first page)', async () => {
    tck.driver.respond = answering({
      listMemories: () => [{ memory: memoryNode(memoryProps('m2')) }],
      listEdges: () => [{ edge: relationship('CITES', edgeProps('e2')), fromId: 'a', toId: 'b' }],
    });
    expect((await tck.store.listMemories(WS, { afterId: null, limit: 2 })).map((memory) => memory.id)).toEqual(['m2']);
    expect((await tck.store.listEdges(WS, { afterId: 'e1', limit: 2 })).map((edge) => edge.id)).toEqual(['e2']);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ listMemories (op listMemories)
      \`\`\`cypher
      // engram:listMemories
      MATCH (m:Memory {workspace: $ws})
      WHERE m.id > $afterId
      WITH m
      ORDER BY m.workspace ASC, m.id ASC
      LIMIT $limit
      RETURN m AS memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "afterId": "",
        "limit": "int(2)"
      }
      \`\`\`

      # READ listEdges (op listEdges)
      \`\`\`cypher
      // engram:listEdges
      MATCH (k:EdgeRef {workspace: $ws})
      WHERE k.id > $afterId
      WITH k
      ORDER BY k.workspace ASC, k.id ASC
      LIMIT $limit
      MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
      WHERE r.id = k.id
      RETURN r AS edge, a.id AS fromId, b.id AS toId
      ORDER BY r.id ASC
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "afterId": "e1",
        "limit": "int(2)"
      }
      \`\`\`"
    `);
  });
});

describeEverySentStatement(tck.everyStatement, 7);
