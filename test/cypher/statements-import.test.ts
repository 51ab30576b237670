import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import type { Row } from './recording-driver.js';
import {
  answering,
  describeEverySentStatement,
  expectCode,
  HOSTILE_TEXT,
  newMemory,
  T1,
  useRecordingStore,
  WS,
} from './tck.js';

/** TCK (see tck.ts): bulk import, memories and edges upserted in one transaction. */

const tck = useRecordingStore();

describe('writes: import', () => {
  it('importBatch: one transaction, memories by UNWIND, edges by UNWIND per relation type', async () => {
    tck.driver.respond = answering({
      importEdges: (statement) => [{ upserted: int((statement.parameters.edges as Row[]).length) }],
    });
    const batch = {
      memories: [newMemory, { ...newMemory, id: 'm2', key: null, metadata: null, tags: [] }],
      edges: [
        { id: 'e1', fromId: 'm1', toId: 'm2', type: 'CITES', weight: 0.5, metadata: null },
        { id: 'e2', fromId: 'm2', toId: 'm1', type: 'CONTRADICTS', weight: 0.3, metadata: { why: HOSTILE_TEXT } },
        { id: 'e3', fromId: 'm2', toId: 'x', type: 'CITES', weight: 0.4, metadata: null },
      ],
    };
    expect(await tck.store.importBatch(WS, batch, T1)).toEqual({ memories: 2, edges: 3 });
    expect(tck.names()).toEqual(['WRITE importMemories', 'WRITE importEdges', 'WRITE importEdges']);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE importMemories (op importBatch)
      \`\`\`cypher
      // engram:importMemories
      UNWIND $memories AS row
      MERGE (m:Memory {workspace: $ws, id: row.id})
      ON CREATE SET m.createdAt = $now
      WITH m, row, m.title AS oldTitle, m.content AS oldContent
      SET m.key = row.key, m.title = row.title, m.content = row.content, m.kind = row.kind,
        m.tags = row.tags, m.tagsText = row.tagsText, m.weight = row.weight, m.metadata = row.metadata,
        m.updatedAt = $now
      WITH m, coalesce(m.title = oldTitle AND (m.content = oldContent OR (m.content IS NULL AND oldContent IS NULL)), false) AS sameText
      SET m.embeddingQueue = CASE WHEN sameText THEN m.embeddingQueue ELSE $now + ' ' + m.id END
      WITH m, sameText
      OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: m.id})
      WHERE NOT sameText
      DELETE v
      WITH m
      CALL (m) {
        WITH m
        WHERE true
        MATCH (old:MemoryTag {workspace: $ws, memoryId: m.id})
        DELETE old
      }
      FOREACH (tag IN CASE WHEN true THEN coalesce(m.tags, []) ELSE [] END |
        MERGE (:MemoryTag {workspace: $ws, tag: tag, createdAt: m.createdAt, memoryId: m.id}))
      RETURN count(m) AS upserted
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "memories": [
          {
            "id": "m1",
            "key": "key\`]->() DETACH DELETE n",
            "title": "x'}) MATCH (n) DETACH DELETE n //",
            "content": "Line one\\nline \\"two\\"",
            "kind": "decision",
            "tags": [
              "database",
              "adr"
            ],
            "tagsText": "database adr",
            "weight": 0.75,
            "metadata": "{\\"note\\":\\"}) RETURN 1 //\\",\\"nested\\":{\\"list\\":[1,\\"two\\",null]}}"
          },
          {
            "id": "m2",
            "key": null,
            "title": "x'}) MATCH (n) DETACH DELETE n //",
            "content": "Line one\\nline \\"two\\"",
            "kind": "decision",
            "tags": [],
            "tagsText": "",
            "weight": 0.75,
            "metadata": null
          }
        ],
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`

      # WRITE importEdges (op importBatch)
      \`\`\`cypher
      // engram:importEdges
      UNWIND $edges AS row
      MATCH (a:Memory {workspace: $ws, id: row.fromId})
      MATCH (b:Memory {workspace: $ws, id: row.toId})
      MERGE (a)-[r:\`CITES\`]->(b)
      ON CREATE SET r.id = row.id, r.createdAt = $now
      SET r.weight = row.weight, r.metadata = row.metadata, r.updatedAt = $now
      MERGE (k:EdgeRef {workspace: $ws, fromId: row.fromId, toId: row.toId, type: $type})
      ON CREATE SET k.id = r.id
      SET k.negWeight = -r.weight
      RETURN count(r) AS upserted
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "type": "CITES",
        "edges": [
          {
            "id": "e1",
            "fromId": "m1",
            "toId": "m2",
            "weight": 0.5,
            "metadata": null
          },
          {
            "id": "e3",
            "fromId": "m2",
            "toId": "x",
            "weight": 0.4,
            "metadata": null
          }
        ],
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`

      # WRITE importEdges (op importBatch)
      \`\`\`cypher
      // engram:importEdges
      UNWIND $edges AS row
      MATCH (a:Memory {workspace: $ws, id: row.fromId})
      MATCH (b:Memory {workspace: $ws, id: row.toId})
      MERGE (a)-[r:\`CONTRADICTS\`]->(b)
      ON CREATE SET r.id = row.id, r.createdAt = $now
      SET r.weight = row.weight, r.metadata = row.metadata, r.updatedAt = $now
      MERGE (k:EdgeRef {workspace: $ws, fromId: row.fromId, toId: row.toId, type: $type})
      ON CREATE SET k.id = r.id
      SET k.negWeight = -r.weight
      RETURN count(r) AS upserted
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "type": "CONTRADICTS",
        "edges": [
          {
            "id": "e2",
            "fromId": "m2",
            "toId": "m1",
            "weight": 0.3,
            "metadata": "{\\"why\\":\\"$ws }) RETURN 1 UNION MATCH (n) RETURN n //\\"}"
          }
        ],
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`"
    `);
  });

  it('importBatch: an edge to a memory in neither the batch nor the store is NOT_FOUND', async () => {
    tck.driver.respond = answering({ importEdges: () => [{ upserted: int(0) }] });
    await expectCode(
      tck.store.importBatch(
        WS,
        { memories: [], edges: [{ id: 'e1', fromId: 'a', toId: 'b', type: 'CITES', weight: 0.5, metadata: null }] },
        T1,
      ),
      'NOT_FOUND',
    );
  });
});

describeEverySentStatement(tck.everyStatement, 2);
