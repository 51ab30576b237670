import { describe, expect, it } from 'vitest';
import { answering, describeEverySentStatement, edgeProps, useRecordingStore, WS } from './tck.js';

/** TCK (see tck.ts): unlinkEdges, by id and by triple. */

const tck = useRecordingStore();

describe('writes: unlinkEdges', () => {
  it('unlinkEdges: by id or by triple, one statement that returns the edge as it was', async () => {
    tck.driver.respond = answering({
      unlinkEdge: () => [
        { props: edgeProps('e1', { weight: 0.2, prevWeight: 0.5 }), relType: 'CITES', fromId: 'a', toId: 'b' },
      ],
    });
    expect(await tck.store.unlinkEdges(WS, { id: 'e1' })).toEqual([
      expect.objectContaining({ id: 'e1', type: 'CITES', weight: 0.2, fromId: 'a' }),
    ]);
    await tck.store.unlinkEdges(WS, { fromId: 'a', toId: 'b', type: 'CITES' });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE unlinkEdge:id (op unlinkEdges)
      \`\`\`cypher
      // engram:unlinkEdge:id
      MATCH (k:EdgeRef {workspace: $ws, id: $id})
      MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
      WHERE r.id = k.id
      WITH k, r, properties(r) AS props, type(r) AS relType, a.id AS fromId, b.id AS toId
      DELETE r, k
      RETURN props, relType, fromId, toId
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "id": "e1"
      }
      \`\`\`

      # WRITE unlinkEdge:triple (op unlinkEdges)
      \`\`\`cypher
      // engram:unlinkEdge:triple
      MATCH (k:EdgeRef {workspace: $ws, fromId: $fromId, toId: $toId, type: $type})
      MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
      WHERE r.id = k.id
      WITH k, r, properties(r) AS props, type(r) AS relType, a.id AS fromId, b.id AS toId
      DELETE r, k
      RETURN props, relType, fromId, toId
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "fromId": "a",
        "toId": "b",
        "type": "CITES"
      }
      \`\`\`"
    `);
  });
});

describeEverySentStatement(tck.everyStatement, 2);
