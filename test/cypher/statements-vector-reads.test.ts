import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { answering, describeEverySentStatement, memoryProps, useRecordingStore, WS } from './tck.js';

/** TCK (see tck.ts): vectors as :MemoryVector nodes under one vector index per length, the queue on :Memory. */

const tck = useRecordingStore();

describe('vectors: reads', () => {
  it('nearestMemories: asks the index for k × 4, then k × 16 candidates while its workspace has fewer than k; score (1 + cos) / 2 becomes distance 1 - cos', async () => {
    tck.driver.respond = answering({
      vectorDimensions: () => [{ dims: int(2) }],
      nearestVectors: (statement) => [
        {
          seen: statement.parameters.candidates,
          found: [
            { memoryId: 'far', score: 0.5 },
            { memoryId: 'near', score: 1 },
          ],
        },
      ],
    });
    expect(await tck.store.nearestMemories(WS, [1, 0], 3)).toEqual([
      { memoryId: 'near', distance: 0 },
      { memoryId: 'far', distance: 1 },
    ]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ vectorDimensions (op nearestMemories)
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

      # READ nearestVectors (op nearestMemories)
      \`\`\`cypher
      // engram:nearestVectors
      CALL db.index.vector.queryNodes($index, $candidates, $vector) YIELD node, score
      WITH count(*) AS seen, collect(CASE WHEN node.workspace = $ws THEN {memoryId: node.memoryId, score: score} END) AS found
      RETURN seen, found
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "index": "memory_embedding_d2",
        "candidates": "int(12)",
        "vector": [
          1,
          0
        ]
      }
      \`\`\`

      # READ nearestVectors (op nearestMemories)
      \`\`\`cypher
      // engram:nearestVectors
      CALL db.index.vector.queryNodes($index, $candidates, $vector) YIELD node, score
      WITH count(*) AS seen, collect(CASE WHEN node.workspace = $ws THEN {memoryId: node.memoryId, score: score} END) AS found
      RETURN seen, found
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "index": "memory_embedding_d2",
        "candidates": "int(48)",
        "vector": [
          1,
          0
        ]
      }
      \`\`\`

      # READ nearestVectors (op nearestMemories)
      \`\`\`cypher
      // engram:nearestVectors
      CALL db.index.vector.queryNodes($index, $candidates, $vector) YIELD node, score
      WITH count(*) AS seen, collect(CASE WHEN node.workspace = $ws THEN {memoryId: node.memoryId, score: score} END) AS found
      RETURN seen, found
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "index": "memory_embedding_d2",
        "candidates": "int(192)",
        "vector": [
          1,
          0
        ]
      }
      \`\`\`"
    `);
  });

  it('nearestMemories: a zero vector, or one of another length than the workspace has, finds nothing', async () => {
    tck.driver.respond = answering({ vectorDimensions: () => [{ dims: int(2) }] });
    expect(await tck.store.nearestMemories(WS, [0, 0], 3)).toEqual([]);
    expect(await tck.store.nearestMemories(WS, [1, 0, 0], 3)).toEqual([]);
    expect(tck.names()).toEqual(['READ vectorDimensions']);
  });

  it('hasEmbeddings: one lookup for all ids, answered in order', async () => {
    tck.driver.respond = answering({
      hasVectors: () => [
        { id: 'b', has: true },
        { id: 'a', has: false },
      ],
    });
    expect(await tck.store.hasEmbeddings(WS, ['a', 'b'])).toEqual([false, true]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ hasVectors (op hasEmbeddings)
      \`\`\`cypher
      // engram:hasVectors
      UNWIND $ids AS id
      OPTIONAL MATCH (v:MemoryVector {workspace: $ws, memoryId: id})
      RETURN id, v IS NOT NULL AS has
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "a",
          "b"
        ]
      }
      \`\`\`"
    `);
  });

  it('memoriesNeedingEmbedding: reads at most the limit, in the queue index order', async () => {
    tck.driver.respond = answering({ queuedMemories: () => [{ memory: memoryProps('m1') }] });
    expect((await tck.store.memoriesNeedingEmbedding(WS, 2)).map((memory) => memory.id)).toEqual(['m1']);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ queuedMemories (op memoriesNeedingEmbedding)
      \`\`\`cypher
      // engram:queuedMemories
      MATCH (m:Memory)
      WHERE m.workspace = $ws AND m.embeddingQueue IS NOT NULL
      WITH m
      ORDER BY m.workspace ASC, m.embeddingQueue ASC
      LIMIT $limit
      RETURN m AS memory
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "limit": "int(2)"
      }
      \`\`\`"
    `);
  });

  it('workspacesNeedingEmbedding: one index seek per workspace, at most the limit', async () => {
    const queued = ['a', 'b', 'c'];
    tck.driver.respond = answering({
      nextQueuedWorkspace: (statement) => {
        const next = queued.find((ws) => ws > (statement.parameters.after as string));
        return next ? [{ ws: next }] : [];
      },
    });
    expect(await tck.store.workspacesNeedingEmbedding(2)).toEqual(['a', 'b']);
    expect(await tck.store.workspacesNeedingEmbedding(10)).toEqual(['a', 'b', 'c']);
    expect(tck.names().filter((name) => name === 'READ nextQueuedWorkspace')).toHaveLength(2 + 4);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ nextQueuedWorkspace (op workspacesNeedingEmbedding)
      \`\`\`cypher
      // engram:nextQueuedWorkspace
      MATCH (m:Memory)
      WHERE m.workspace > $after AND m.embeddingQueue IS NOT NULL
      WITH m.workspace AS ws
      ORDER BY ws ASC
      LIMIT 1
      RETURN ws
      \`\`\`
      \`\`\`json
      {
        "after": ""
      }
      \`\`\`

      # READ nextQueuedWorkspace (op workspacesNeedingEmbedding)
      \`\`\`cypher
      // engram:nextQueuedWorkspace
      MATCH (m:Memory)
      WHERE m.workspace > $after AND m.embeddingQueue IS NOT NULL
      WITH m.workspace AS ws
      ORDER BY ws ASC
      LIMIT 1
      RETURN ws
      \`\`\`
      \`\`\`json
      {
        "after": "a"
      }
      \`\`\`

      # READ nextQueuedWorkspace (op workspacesNeedingEmbedding)
      \`\`\`cypher
      // engram:nextQueuedWorkspace
      MATCH (m:Memory)
      WHERE m.workspace > $after AND m.embeddingQueue IS NOT NULL
      WITH m.workspace AS ws
      ORDER BY ws ASC
      LIMIT 1
      RETURN ws
      \`\`\`
      \`\`\`json
      {
        "after": ""
      }
      \`\`\`

      # READ nextQueuedWorkspace (op workspacesNeedingEmbedding)
      \`\`\`cypher
      // engram:nextQueuedWorkspace
      MATCH (m:Memory)
      WHERE m.workspace > $after AND m.embeddingQueue IS NOT NULL
      WITH m.workspace AS ws
      ORDER BY ws ASC
      LIMIT 1
      RETURN ws
      \`\`\`
      \`\`\`json
      {
        "after": "a"
      }
      \`\`\`

      # READ nextQueuedWorkspace (op workspacesNeedingEmbedding)
      \`\`\`cypher
      // engram:nextQueuedWorkspace
      MATCH (m:Memory)
      WHERE m.workspace > $after AND m.embeddingQueue IS NOT NULL
      WITH m.workspace AS ws
      ORDER BY ws ASC
      LIMIT 1
      RETURN ws
      \`\`\`
      \`\`\`json
      {
        "after": "b"
      }
      \`\`\`

      # READ nextQueuedWorkspace (op workspacesNeedingEmbedding)
      \`\`\`cypher
      // engram:nextQueuedWorkspace
      MATCH (m:Memory)
      WHERE m.workspace > $after AND m.embeddingQueue IS NOT NULL
      WITH m.workspace AS ws
      ORDER BY ws ASC
      LIMIT 1
      RETURN ws
      \`\`\`
      \`\`\`json
      {
        "after": "c"
      }
      \`\`\`"
    `);
  });
});

describeEverySentStatement(tck.everyStatement, 5);
