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
      getAdjacent: () => [
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
        "BOTH": "# READ getAdjacent:BOTH (op getAdjacent)
      \`\`\`cypher
      // engram:getAdjacent:BOTH
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})-[r]-(other)
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above AND r.weight >= $atLeast
      WITH anchorId, r, other, startNode(r) = m AS outgoing
      ORDER BY r.weight DESC, r.id ASC
      WITH anchorId, collect({edge: r, neighbor: other, outgoing: outgoing})[..$limit] AS adjacent
      UNWIND adjacent AS entry
      RETURN anchorId, entry.edge AS edge, entry.neighbor AS neighbor, entry.outgoing AS outgoing
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "hub",
          "lonely"
        ],
        "types": [
          "CITES",
          "SUPERSEDES"
        ],
        "above": 0.05,
        "atLeast": 0.1,
        "limit": "int(2)"
      }
      \`\`\`",
        "INCOMING": "# READ getAdjacent:INCOMING (op getAdjacent)
      \`\`\`cypher
      // engram:getAdjacent:INCOMING
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})<-[r]-(other)
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above AND r.weight >= $atLeast
      WITH anchorId, r, other, startNode(r) = m AS outgoing
      ORDER BY r.weight DESC, r.id ASC
      WITH anchorId, collect({edge: r, neighbor: other, outgoing: outgoing})[..$limit] AS adjacent
      UNWIND adjacent AS entry
      RETURN anchorId, entry.edge AS edge, entry.neighbor AS neighbor, entry.outgoing AS outgoing
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "hub",
          "lonely"
        ],
        "types": [
          "CITES",
          "SUPERSEDES"
        ],
        "above": 0.05,
        "atLeast": 0.1,
        "limit": "int(2)"
      }
      \`\`\`",
        "OUTGOING": "# READ getAdjacent:OUTGOING (op getAdjacent)
      \`\`\`cypher
      // engram:getAdjacent:OUTGOING
      UNWIND $ids AS anchorId
      MATCH (m:Memory {workspace: $ws, id: anchorId})-[r]->(other)
      WHERE ($types IS NULL OR type(r) IN $types) AND r.weight > $above AND r.weight >= $atLeast
      WITH anchorId, r, other, startNode(r) = m AS outgoing
      ORDER BY r.weight DESC, r.id ASC
      WITH anchorId, collect({edge: r, neighbor: other, outgoing: outgoing})[..$limit] AS adjacent
      UNWIND adjacent AS entry
      RETURN anchorId, entry.edge AS edge, entry.neighbor AS neighbor, entry.outgoing AS outgoing
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "hub",
          "lonely"
        ],
        "types": [
          "CITES",
          "SUPERSEDES"
        ],
        "above": 0.05,
        "atLeast": 0.1,
        "limit": "int(2)"
      }
      \`\`\`",
      }
    `);
  });

  it('getAdjacent: includePruned and no limit become -1 and the largest 32-bit Integer', async () => {
    await tck.store.getAdjacent(WS, ['hub'], adjacency({ includePruned: true }));
    expect(tck.driver.statements[0]?.parameters).toMatchObject({
      above: -1,
      atLeast: -1,
      limit: int(2_147_483_647),
      types: null,
    });
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
