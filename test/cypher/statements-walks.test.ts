import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { memoryNode, relationship } from './recording-driver.js';
import {
  adjacency,
  answering,
  DIRECTIONS,
  describeEverySentStatement,
  edgeProps,
  frontier,
  memoryProps,
  useRecordingStore,
  WS,
} from './tck.js';

/**
 * TCK (see tck.ts): adjacency, degree and frontier reads, the statements whose arrow depends on the
 * direction. Each test calls once per direction and snapshots what each call sent, by direction
 * (an inline snapshot cannot sit in an it.each).
 */

const tck = useRecordingStore();

/** What each direction's call sent. */
async function sentPerDirection(call: (direction: (typeof DIRECTIONS)[number]) => Promise<void>) {
  const sent: Record<string, string> = {};
  for (const direction of DIRECTIONS) {
    const from = tck.driver.statements.length;
    await call(direction);
    sent[direction] = tck.sentSince(from);
  }
  return sent;
}

describe('reads: walks', () => {
  it('getAdjacent: one statement per call, per-memory limit as an Integer', async () => {
    tck.driver.respond = answering({
      adjacentEdges: () => [
        {
          anchorId: 'hub',
          edge: relationship('CITES', edgeProps('e1', { weight: 0.9 })),
          neighbor: memoryNode(memoryProps('s1')),
          outgoing: true,
        },
        {
          anchorId: 'hub',
          edge: relationship('SUPERSEDES', edgeProps('e2', { weight: 0.6 })),
          neighbor: memoryNode(memoryProps('s6')),
          outgoing: false,
        },
      ],
    });
    const sent = await sentPerDirection(async (direction) => {
      const [hub, lonely] = await tck.store.getAdjacent(
        WS,
        ['hub', 'lonely', 'hub'],
        adjacency({ direction, types: ['CITES', 'SUPERSEDES'], minWeight: 0.1, limitPerMemory: 2 }),
      );
      expect(hub?.map((entry) => [entry.direction, entry.edge.fromId, entry.edge.toId, entry.neighbor.id])).toEqual([
        ['OUTGOING', 'hub', 's1', 's1'],
        ['INCOMING', 's6', 'hub', 's6'],
      ]);
      expect(lonely).toEqual([]);
    });
    expect(sent).toMatchInlineSnapshot(`
      {
        "BOTH": "# READ adjacentEdges:BOTH+types (op getAdjacent)
      \`\`\`cypher
      // engram:adjacentEdges:BOTH+types
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})
      WITH *, COUNT { (m)-[]-() } AS degree
        CALL (m, anchorId, degree) {
          WITH m
          WHERE degree <= $expandUpTo
          MATCH (m)-[r]-(other)
          WHERE type(r) IN $types AND -r.weight < $below AND -r.weight <= $atMost
          WITH DISTINCT r, other, startNode(r) = m AS outgoing
          ORDER BY r.weight DESC, r.id ASC
          LIMIT $limit
          RETURN r, other, outgoing
          UNION ALL
          WITH anchorId
          WHERE degree > $expandUpTo
          CALL (anchorId) {
            UNWIND $types AS type
            CALL (anchorId, type) {
              MATCH (k:EdgeRef {workspace: $ws, fromId: anchorId, type: type})
            USING INDEX k:EdgeRef(workspace, fromId, type, negWeight, id)
            WHERE k.negWeight < $below AND k.negWeight <= $atMost AND k.id IS NOT NULL
            RETURN k, true AS outgoing
            ORDER BY k.workspace ASC, k.fromId ASC, k.type ASC, k.negWeight ASC, k.id ASC
            LIMIT $limit
              UNION ALL
              MATCH (k:EdgeRef {workspace: $ws, toId: anchorId, type: type})
            USING INDEX k:EdgeRef(workspace, toId, type, negWeight, id)
            WHERE k.negWeight < $below AND k.negWeight <= $atMost AND k.id IS NOT NULL AND k.fromId <> k.toId
            RETURN k, false AS outgoing
            ORDER BY k.workspace ASC, k.toId ASC, k.type ASC, k.negWeight ASC, k.id ASC
            LIMIT $limit
            }
            RETURN k, outgoing
            ORDER BY k.negWeight ASC, k.id ASC
            LIMIT $limit
          }
          MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
          WHERE r.id = k.id
          RETURN r, CASE WHEN outgoing THEN b ELSE a END AS other, outgoing
        }
      RETURN anchorId, r AS edge, other AS neighbor, outgoing
      ORDER BY r.weight DESC, r.id ASC
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "hub",
          "lonely"
        ],
        "below": -0.05,
        "atMost": -0.1,
        "limit": "int(2)",
        "expandUpTo": "int(30)",
        "types": [
          "CITES",
          "SUPERSEDES"
        ]
      }
      \`\`\`",
        "INCOMING": "# READ adjacentEdges:INCOMING+types (op getAdjacent)
      \`\`\`cypher
      // engram:adjacentEdges:INCOMING+types
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})
      WITH *, COUNT { (m)<-[]-() } AS degree
        CALL (m, anchorId, degree) {
          WITH m
          WHERE degree <= $expandUpTo
          MATCH (m)<-[r]-(other)
          WHERE type(r) IN $types AND -r.weight < $below AND -r.weight <= $atMost
          WITH r, other, false AS outgoing
          ORDER BY r.weight DESC, r.id ASC
          LIMIT $limit
          RETURN r, other, outgoing
          UNION ALL
          WITH anchorId
          WHERE degree > $expandUpTo
          CALL (anchorId) {
            UNWIND $types AS type
            CALL (anchorId, type) {
              MATCH (k:EdgeRef {workspace: $ws, toId: anchorId, type: type})
            USING INDEX k:EdgeRef(workspace, toId, type, negWeight, id)
            WHERE k.negWeight < $below AND k.negWeight <= $atMost AND k.id IS NOT NULL
            RETURN k, false AS outgoing
            ORDER BY k.workspace ASC, k.toId ASC, k.type ASC, k.negWeight ASC, k.id ASC
            LIMIT $limit
            }
            RETURN k, outgoing
            ORDER BY k.negWeight ASC, k.id ASC
            LIMIT $limit
          }
          MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
          WHERE r.id = k.id
          RETURN r, CASE WHEN outgoing THEN b ELSE a END AS other, outgoing
        }
      RETURN anchorId, r AS edge, other AS neighbor, outgoing
      ORDER BY r.weight DESC, r.id ASC
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "hub",
          "lonely"
        ],
        "below": -0.05,
        "atMost": -0.1,
        "limit": "int(2)",
        "expandUpTo": "int(30)",
        "types": [
          "CITES",
          "SUPERSEDES"
        ]
      }
      \`\`\`",
        "OUTGOING": "# READ adjacentEdges:OUTGOING+types (op getAdjacent)
      \`\`\`cypher
      // engram:adjacentEdges:OUTGOING+types
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})
      WITH *, COUNT { (m)-[]->() } AS degree
        CALL (m, anchorId, degree) {
          WITH m
          WHERE degree <= $expandUpTo
          MATCH (m)-[r]->(other)
          WHERE type(r) IN $types AND -r.weight < $below AND -r.weight <= $atMost
          WITH r, other, true AS outgoing
          ORDER BY r.weight DESC, r.id ASC
          LIMIT $limit
          RETURN r, other, outgoing
          UNION ALL
          WITH anchorId
          WHERE degree > $expandUpTo
          CALL (anchorId) {
            UNWIND $types AS type
            CALL (anchorId, type) {
              MATCH (k:EdgeRef {workspace: $ws, fromId: anchorId, type: type})
            USING INDEX k:EdgeRef(workspace, fromId, type, negWeight, id)
            WHERE k.negWeight < $below AND k.negWeight <= $atMost AND k.id IS NOT NULL
            RETURN k, true AS outgoing
            ORDER BY k.workspace ASC, k.fromId ASC, k.type ASC, k.negWeight ASC, k.id ASC
            LIMIT $limit
            }
            RETURN k, outgoing
            ORDER BY k.negWeight ASC, k.id ASC
            LIMIT $limit
          }
          MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
          WHERE r.id = k.id
          RETURN r, CASE WHEN outgoing THEN b ELSE a END AS other, outgoing
        }
      RETURN anchorId, r AS edge, other AS neighbor, outgoing
      ORDER BY r.weight DESC, r.id ASC
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "hub",
          "lonely"
        ],
        "below": -0.05,
        "atMost": -0.1,
        "limit": "int(2)",
        "expandUpTo": "int(30)",
        "types": [
          "CITES",
          "SUPERSEDES"
        ]
      }
      \`\`\`",
      }
    `);
  });

  it('getAdjacent: includePruned and no limit become bounds of 1 (weights negated) and the largest 32-bit Integer', async () => {
    await tck.store.getAdjacent(WS, ['hub'], adjacency({ includePruned: true }));
    const [sent] = tck.driver.statements;
    expect(sent?.parameters).toMatchObject({ below: 1, atMost: 1, limit: int(2_147_483_647) });
    expect(sent?.parameters).not.toHaveProperty('types');
    expect(sent?.name).toBe('adjacentEdges:BOTH');
  });

  it('countAdjacent: one statement per call, 0 for memories without rows', async () => {
    tck.driver.respond = answering({ countAdjacent: () => [{ anchorId: 'hub', degree: int(5) }] });
    const sent = await sentPerDirection(async (direction) => {
      expect(
        await tck.store.countAdjacent(WS, ['s1', 'hub'], {
          direction,
          types: null,
          includePruned: false,
          pruneThreshold: 0.05,
        }),
      ).toEqual([0, 5]);
    });
    expect(sent).toMatchInlineSnapshot(`
      {
        "BOTH": "# READ countAdjacent:BOTH (op countAdjacent)
      \`\`\`cypher
      // engram:countAdjacent:BOTH
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})-[r]-()
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
      RETURN anchorId, count(r) AS degree
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "s1",
          "hub"
        ],
        "types": null,
        "above": 0.05
      }
      \`\`\`",
        "INCOMING": "# READ countAdjacent:INCOMING (op countAdjacent)
      \`\`\`cypher
      // engram:countAdjacent:INCOMING
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})<-[r]-()
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
      RETURN anchorId, count(r) AS degree
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "s1",
          "hub"
        ],
        "types": null,
        "above": 0.05
      }
      \`\`\`",
        "OUTGOING": "# READ countAdjacent:OUTGOING (op countAdjacent)
      \`\`\`cypher
      // engram:countAdjacent:OUTGOING
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})-[r]->()
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
      RETURN anchorId, count(r) AS degree
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "s1",
          "hub"
        ],
        "types": null,
        "above": 0.05
      }
      \`\`\`",
      }
    `);
  });

  it('expandFrontier: asks for budget + 1 rows and reports truncation', async () => {
    tck.driver.respond = answering({
      expandFrontier: () => [1, 2, 3].map((n) => ({ fromId: 'a', toId: `b${n}`, edgeId: `e${n}`, weight: 0.5 })),
    });
    const sent = await sentPerDirection(async (direction) => {
      const from = tck.driver.statements.length;
      const expansion = await tck.store.expandFrontier(
        WS,
        ['a'],
        frontier({ direction, budget: 2, types: ['CAUSED_BY'] }),
      );
      expect(expansion).toEqual({
        steps: [
          { from: 'a', to: 'b1', edgeId: 'e1', weight: 0.5 },
          { from: 'a', to: 'b2', edgeId: 'e2', weight: 0.5 },
        ],
        truncated: true,
      });
      expect(tck.driver.statements[from]?.parameters.take).toEqual(int(3));
    });
    expect(sent).toMatchInlineSnapshot(`
      {
        "BOTH": "# READ expandFrontier:BOTH (op expandFrontier)
      \`\`\`cypher
      // engram:expandFrontier:BOTH
      UNWIND $ids AS fromId
      MATCH (m:Memory {workspace: $ws, id: fromId})-[r]-(other)
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
      RETURN fromId, other.id AS toId, r.id AS edgeId, r.weight AS weight
      LIMIT $take
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "a"
        ],
        "types": [
          "CAUSED_BY"
        ],
        "above": 0.05,
        "take": "int(3)"
      }
      \`\`\`",
        "INCOMING": "# READ expandFrontier:INCOMING (op expandFrontier)
      \`\`\`cypher
      // engram:expandFrontier:INCOMING
      UNWIND $ids AS fromId
      MATCH (m:Memory {workspace: $ws, id: fromId})<-[r]-(other)
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
      RETURN fromId, other.id AS toId, r.id AS edgeId, r.weight AS weight
      LIMIT $take
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "a"
        ],
        "types": [
          "CAUSED_BY"
        ],
        "above": 0.05,
        "take": "int(3)"
      }
      \`\`\`",
        "OUTGOING": "# READ expandFrontier:OUTGOING (op expandFrontier)
      \`\`\`cypher
      // engram:expandFrontier:OUTGOING
      UNWIND $ids AS fromId
      MATCH (m:Memory {workspace: $ws, id: fromId})-[r]->(other)
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above
      RETURN fromId, other.id AS toId, r.id AS edgeId, r.weight AS weight
      LIMIT $take
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "a"
        ],
        "types": [
          "CAUSED_BY"
        ],
        "above": 0.05,
        "take": "int(3)"
      }
      \`\`\`",
      }
    `);
  });
});

describeEverySentStatement(tck.everyStatement, 9);
