import { describe, expect, it } from 'vitest';
import type { RecallRecord } from '../../src/store/port.js';
import { answering, describeEverySentStatement, HOSTILE_TEXT, T0, T1, useRecordingStore, WS } from './tck.js';

/** TCK (see tck.ts): recall records as :Recall nodes. */

const tck = useRecordingStore();

const RECORD: RecallRecord = {
  id: 'r1',
  query: HOSTILE_TEXT,
  results: [
    { memoryId: 'm1', score: 1, lexical: 1, vector: null, graph: null, seed: true, path: [] },
    { memoryId: 'm2', score: 0.45, lexical: null, vector: null, graph: 0.45, seed: false, path: ['e1'] },
  ],
  truncated: false,
  createdAt: T0,
  expiresAt: T1,
};

/** The node as `r {.*}` returns it: results as the JSON string it is stored as. */
const stored = { ...RECORD, workspace: WS, results: JSON.stringify(RECORD.results) };

describe('recall records', () => {
  it('saveRecall: purges a bounded number of expired records, then creates the node, in one transaction', async () => {
    await tck.store.saveRecall(WS, RECORD, T0);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE purgeRecalls (op saveRecall)
      \`\`\`cypher
      // engram:purgeRecalls
      MATCH (r:Recall {workspace: $ws})
      WHERE r.expiresAt <= $now
      WITH r ORDER BY r.expiresAt LIMIT $limit
      DELETE r
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "now": "2099-01-01T00:00:00.000Z",
        "limit": "int(100)"
      }
      \`\`\`

      # WRITE createRecall (op saveRecall)
      \`\`\`cypher
      // engram:createRecall
      CREATE (r:Recall {workspace: $ws, id: $id, query: $query, results: $results, truncated: $truncated,
        createdAt: $createdAt, expiresAt: $expiresAt})
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "id": "r1",
        "query": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
        "results": "[{\\"memoryId\\":\\"m1\\",\\"score\\":1,\\"lexical\\":1,\\"vector\\":null,\\"graph\\":null,\\"seed\\":true,\\"path\\":[]},{\\"memoryId\\":\\"m2\\",\\"score\\":0.45,\\"lexical\\":null,\\"vector\\":null,\\"graph\\":0.45,\\"seed\\":false,\\"path\\":[\\"e1\\"]}]",
        "truncated": false,
        "createdAt": "2099-01-01T00:00:00.000Z",
        "expiresAt": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`"
    `);
  });

  it('getRecall: only an unexpired record of the workspace; results parsed back', async () => {
    tck.driver.respond = answering({ getRecall: () => [{ recall: stored }] });
    expect(await tck.store.getRecall(WS, 'r1', T0)).toEqual(RECORD);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ getRecall (op getRecall)
      \`\`\`cypher
      // engram:getRecall
      MATCH (r:Recall {workspace: $ws, id: $id})
      WHERE r.expiresAt > $now
      RETURN r {.*} AS recall
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "id": "r1",
        "now": "2099-01-01T00:00:00.000Z"
      }
      \`\`\`"
    `);
  });

  it('listRecalls: unexpired, newest first, limited', async () => {
    tck.driver.respond = answering({ listRecalls: () => [{ recall: stored }] });
    expect(await tck.store.listRecalls(WS, { limit: 5, now: T0 })).toEqual([RECORD]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ listRecalls (op listRecalls)
      \`\`\`cypher
      // engram:listRecalls
      MATCH (r:Recall {workspace: $ws})
      USING INDEX SEEK r:Recall(workspace, createdAt, id)
      WHERE r.createdAt IS NOT NULL AND r.id IS NOT NULL
      WITH r
      ORDER BY r.workspace DESC, r.createdAt DESC, r.id DESC
      WHERE r.expiresAt > $now
      RETURN r {.*} AS recall
      LIMIT $limit
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "now": "2099-01-01T00:00:00.000Z",
        "limit": "int(5)"
      }
      \`\`\`"
    `);
  });
});

describe('listRecalls after a cursor', () => {
  it('continues in index order from its createdAt and id, given as parameters', async () => {
    tck.driver.respond = answering({ listRecallsAfter: () => [{ recall: stored }] });
    const after = { createdAt: T0, id: 'recall-cursor' };
    expect(await tck.store.listRecalls(WS, { limit: 5, now: T0, after })).toEqual([RECORD]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ listRecallsAfter (op listRecalls)
      \`\`\`cypher
      // engram:listRecallsAfter
      MATCH (r:Recall {workspace: $ws})
      USING INDEX SEEK r:Recall(workspace, createdAt, id)
      WHERE r.createdAt <= $afterCreatedAt AND r.id IS NOT NULL AND (r.createdAt < $afterCreatedAt OR r.id < $afterId)
      WITH r
      ORDER BY r.workspace DESC, r.createdAt DESC, r.id DESC
      WHERE r.expiresAt > $now
      RETURN r {.*} AS recall
      LIMIT $limit
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "now": "2099-01-01T00:00:00.000Z",
        "afterCreatedAt": "2099-01-01T00:00:00.000Z",
        "afterId": "recall-cursor",
        "limit": "int(5)"
      }
      \`\`\`"
    `);
  });
});

describeEverySentStatement(tck.everyStatement, 5);
