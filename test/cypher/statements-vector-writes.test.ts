import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { answering, describeEverySentStatement, expectCode, HOSTILE_TITLE, useRecordingStore, WS } from './tck.js';

/** TCK (see tck.ts): vectors as :MemoryVector nodes under one vector index per length, the queue on :Memory. */

const tck = useRecordingStore();

describe('vectors: writes', () => {
  it("setEmbeddings: the workspace's first vector makes its index and waits for it, then checks, claims and stores", async () => {
    tck.driver.respond = answering({
      embeddableMemories: () => [{ index: int(0) }],
      claimVectorDimensions: () => [{ dims: int(3) }],
      storeVectors: () => [{ stored: int(1) }],
    });
    const items = [
      { memoryId: 'm1', vector: [0.5, 0.25, 1], ifText: { title: HOSTILE_TITLE, content: null } },
      { memoryId: 'gone', vector: [1, 0, 0] },
    ];
    expect(await tck.store.setEmbeddings(WS, items)).toBe(1);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ vectorDimensions (op setEmbeddings)
      \`\`\`cypher
      // engram:vectorDimensions
      MATCH (s:VectorSpace {workspace: $ws})
      RETURN s.dims AS dims
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck"
      }
      \`\`\`

      # WRITE createVectorIndex (op setEmbeddings)
      \`\`\`cypher
      // engram:createVectorIndex
      CREATE VECTOR INDEX memory_embedding_d3 IF NOT EXISTS
      FOR (v:MemoryVector) ON v.embedding_d3
      OPTIONS {indexConfig: {
        \`vector.dimensions\`: 3, \`vector.similarity_function\`: 'cosine', \`vector.quantization.enabled\`: false
      }}
      \`\`\`
      \`\`\`json
      {}
      \`\`\`

      # READ awaitVectorIndex (op setEmbeddings)
      \`\`\`cypher
      // engram:awaitVectorIndex
      CALL db.awaitIndex($index, $timeoutSeconds)
      \`\`\`
      \`\`\`json
      {
        "index": "memory_embedding_d3",
        "timeoutSeconds": "int(4)"
      }
      \`\`\`

      # WRITE embeddableMemories (op setEmbeddings)
      \`\`\`cypher
      // engram:embeddableMemories
      UNWIND range(0, size($items) - 1) AS index
      WITH index, $items[index] AS item
      MATCH (m:Memory {workspace: $ws, id: item.memoryId})
      WHERE item.ifText IS NULL
        OR (m.title = item.ifText.title
          AND coalesce(m.content = item.ifText.content, m.content IS NULL AND item.ifText.content IS NULL))
      RETURN index
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "items": [
          {
            "memoryId": "m1",
            "ifText": {
              "title": "x'}) MATCH (n) DETACH DELETE n //",
              "content": null
            }
          },
          {
            "memoryId": "gone",
            "ifText": null
          }
        ]
      }
      \`\`\`

      # WRITE claimVectorDimensions (op setEmbeddings)
      \`\`\`cypher
      // engram:claimVectorDimensions
      MERGE (s:VectorSpace {workspace: $ws})
      ON CREATE SET s.dims = $dims
      RETURN s.dims AS dims
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "dims": "int(3)"
      }
      \`\`\`

      # WRITE storeVectors (op setEmbeddings)
      \`\`\`cypher
      // engram:storeVectors
      UNWIND $items AS item
      MATCH (m:Memory {workspace: $ws, id: item.memoryId})
      MERGE (v:MemoryVector {workspace: $ws, memoryId: item.memoryId})
      SET v.embedding_d3 = item.vector
      REMOVE m.embeddingQueue
      RETURN count(v) AS stored
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "items": [
          {
            "memoryId": "m1",
            "vector": [
              0.5,
              0.25,
              1
            ]
          }
        ]
      }
      \`\`\`"
    `);
  });

  it('setEmbeddings: a vector of another length than the workspace has is refused before anything is stored', async () => {
    tck.driver.respond = answering({
      vectorDimensions: () => [{ dims: int(4) }],
      embeddableMemories: () => [{ index: int(0) }],
    });
    const error = await expectCode(
      tck.store.setEmbeddings(WS, [{ memoryId: 'm1', vector: [1, 0, 0] }]),
      'BAD_USER_INPUT',
    );
    expect(error.message).toMatch(/4 dimensions; got 3/);
    expect(tck.names()).not.toContain('WRITE storeVectors');
    expect(tck.names()).not.toContain('WRITE claimVectorDimensions');
  });
});

describeEverySentStatement(tck.everyStatement, 7);
