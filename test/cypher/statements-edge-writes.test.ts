import { describe, expect, it } from 'vitest';
import { type CapturedStatement, eventNode, type Row, relationship, serverError } from './recording-driver.js';
import {
  answering,
  describeEverySentStatement,
  edgeProps,
  eventProps,
  expectCode,
  HOSTILE_TEXT,
  T1,
  useRecordingStore,
  WS,
} from './tck.js';

/** TCK (see tck.ts): linkEdge: new (with and without a reason), existing, retried. */

const tck = useRecordingStore();

describe('writes: linkEdge', () => {
  const link = {
    id: 'e-new',
    fromId: 'a',
    toId: 'b',
    type: 'CAUSED_BY',
    weight: null,
    defaultWeight: 0.5,
    metadata: { why: "it's `fine`" },
    reason: HOSTILE_TEXT,
    eventId: 'ev-link',
  };

  const createdEdge = (statement: CapturedStatement): Row[] => [
    {
      edge: relationship('CAUSED_BY', {
        id: statement.parameters.id,
        weight: statement.parameters.weight,
        metadata: statement.parameters.metadata,
        createdAt: T1,
        updatedAt: T1,
      }),
      fromId: 'a',
      toId: 'b',
    },
  ];
  /** The reason's no-change MANUAL event on the new edge, as applyEdgeWeights answers it. */
  const reasonNoted = (statement: CapturedStatement): Row[] =>
    (statement.parameters.changes as Row[]).map((change) => ({
      index: change.index,
      target: relationship(
        'CAUSED_BY',
        edgeProps('e-new', {
          weight: 0.5,
          prevWeight: 0.5,
          metadata: JSON.stringify(link.metadata),
          createdAt: T1,
          updatedAt: T1,
        }),
      ),
      fromId: 'a',
      toId: 'b',
      event: eventNode(
        eventProps('ev-link', {
          source: 'MANUAL',
          edgeId: 'e-new',
          oldWeight: 0.5,
          newWeight: 0.5,
          delta: 0,
          reason: change.reason,
        }),
      ),
      revertOk: true,
    }));

  it("linkEdge (new): lock both endpoints and look, then CREATE with the validated type spliced and its EdgeRef, then the reason's MANUAL event, in one transaction", async () => {
    tck.driver.respond = answering({
      linkPrepare: () => [{ fromFound: true, toFound: true, edge: null }],
      linkCreate: createdEdge,
      applyEdgeWeights: reasonNoted,
    });
    const { edge, created } = await tck.store.linkEdge(WS, link, T1);
    expect(created).toBe(true);
    expect(edge).toMatchObject({ id: 'e-new', type: 'CAUSED_BY', weight: 0.5, metadata: { why: "it's `fine`" } });
    expect(tck.names()).toEqual(['WRITE linkPrepare', 'WRITE linkCreate', 'WRITE applyEdgeWeights']);
    expect(new Set(tck.driver.statements.map((statement) => `${statement.op}#${statement.attempt}`))).toEqual(
      new Set(['linkEdge#1']),
    );
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE linkPrepare (op linkEdge)
      \`\`\`cypher
      // engram:linkPrepare
      OPTIONAL MATCH (a:Memory {workspace: $ws, id: $fromId})
      OPTIONAL MATCH (b:Memory {workspace: $ws, id: $toId})
      FOREACH (n IN CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END | SET n._engramLock = true REMOVE n._engramLock)
      WITH a, b
      OPTIONAL MATCH (source:Memory {workspace: $ws, id: $fromId})-[r]->(target:Memory {workspace: $ws, id: $toId})
      USING INDEX SEEK source:Memory(workspace, id)
      USING INDEX SEEK target:Memory(workspace, id)
      WHERE type(r) = $type
      RETURN a IS NOT NULL AS fromFound, b IS NOT NULL AS toFound, r AS edge
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "fromId": "a",
        "toId": "b",
        "type": "CAUSED_BY"
      }
      \`\`\`

      # WRITE linkCreate (op linkEdge)
      \`\`\`cypher
      // engram:linkCreate
      MATCH (a:Memory {workspace: $ws, id: $fromId})
      MATCH (b:Memory {workspace: $ws, id: $toId})
      CREATE (a)-[r:\`CAUSED_BY\` {id: $id, weight: $weight, metadata: $metadata, createdAt: $now, updatedAt: $now}]->(b)
      CREATE (:EdgeRef {workspace: $ws, id: $id, fromId: $fromId, toId: $toId, type: $type, negWeight: -r.weight})
      RETURN r AS edge, a.id AS fromId, b.id AS toId
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "fromId": "a",
        "toId": "b",
        "type": "CAUSED_BY",
        "id": "e-new",
        "weight": 0.5,
        "metadata": "{\\"why\\":\\"it's \`fine\`\\"}",
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`

      # WRITE applyEdgeWeights (op linkEdge)
      \`\`\`cypher
      // engram:applyEdgeWeights
      UNWIND $changes AS change
      MATCH (k:EdgeRef {workspace: $ws, id: change.targetId})
      MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
      WHERE r.id = k.id
      SET r.prevWeight = r.weight,
        r.weight = round(CASE
          WHEN change.isDelta AND r.weight + change.amount < $floor THEN $floor
          WHEN change.isDelta AND r.weight + change.amount > $ceiling THEN $ceiling
          WHEN change.isDelta THEN r.weight + change.amount
          WHEN change.amount < $floor THEN $floor
          WHEN change.amount > $ceiling THEN $ceiling
          ELSE change.amount
        END, 12)
      SET k.negWeight = -r.weight
      WITH change, r, a.id AS fromId, b.id AS toId
      CALL (change) {
        MATCH (last:WeightEvent {workspace: $ws, edgeId: change.targetId})
        USING INDEX SEEK last:WeightEvent(workspace, edgeId, at, id)
        WHERE last.at IS NOT NULL AND last.id IS NOT NULL
        WITH last
        ORDER BY last.workspace DESC, last.edgeId DESC, last.at DESC, last.id DESC
        LIMIT 1
        RETURN collect(last)[0] AS newest
      }
      WITH change, r, fromId, toId, CASE
        WHEN newest IS NULL OR $now > newest.at THEN $now
        WHEN change.eventId > newest.id THEN newest.at
        ELSE [t IN [datetime(newest.at) + duration({milliseconds: 1})] | toString(date(t)) + 'T' +
          right('0' + toString(t.epochMillis / 3600000 % 24), 2) + ':' + right('0' + toString(t.epochMillis / 60000 % 60), 2) + ':' +
          right('0' + toString(t.epochMillis / 1000 % 60), 2) + '.' + right('00' + toString(t.epochMillis % 1000), 3) + 'Z'][0]
      END AS at
      SET r.updatedAt = at
      CREATE (e:WeightEvent {
        workspace: $ws, id: change.eventId, at: at, source: change.source, edgeId: change.targetId,
        oldWeight: r.prevWeight, newWeight: r.weight, delta: round(r.weight - r.prevWeight, 12),
        reason: change.reason
      })
      WITH change, r, e, fromId, toId
      OPTIONAL MATCH (reverted:WeightEvent {workspace: $ws, id: change.revertsEventId})
      SET reverted.revertedBy = CASE WHEN reverted.revertedBy IS NULL THEN change.eventId ELSE reverted.revertedBy END
      RETURN change.index AS index, r AS target, fromId, toId, e AS event,
        change.revertsEventId IS NULL OR coalesce(reverted.revertedBy = change.eventId, false) AS revertOk
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "changes": [
          {
            "index": 0,
            "eventId": "ev-link",
            "targetId": "e-new",
            "isDelta": false,
            "amount": 0.5,
            "source": "MANUAL",
            "reason": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
            "revertsEventId": null
          }
        ],
        "floor": -1.7976931348623157e+308,
        "ceiling": 1.7976931348623157e+308,
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`"
    `);
  });

  it('linkEdge (new, no reason): writes no event', async () => {
    tck.driver.respond = answering({
      linkPrepare: () => [{ fromFound: true, toFound: true, edge: null }],
      linkCreate: createdEdge,
    });
    expect((await tck.store.linkEdge(WS, { ...link, reason: null }, T1)).created).toBe(true);
    expect(tck.names()).toEqual(['WRITE linkPrepare', 'WRITE linkCreate']);
  });

  it('linkEdge (existing, new weight): confirm with merged metadata, then one clamped SET plus its MANUAL event, in one transaction', async () => {
    tck.driver.respond = answering({
      linkPrepare: () => [
        {
          fromFound: true,
          toFound: true,
          edge: relationship('CAUSED_BY', edgeProps('e-old', { weight: 0.4, metadata: '{"keep":1,"why":"old"}' })),
        },
      ],
      linkConfirm: (statement) => [
        {
          edge: relationship(
            'CAUSED_BY',
            edgeProps('e-old', { weight: 0.4, metadata: statement.parameters.metadata, lastConfirmedAt: T1 }),
          ),
          fromId: 'a',
          toId: 'b',
        },
      ],
      applyEdgeWeights: (statement) =>
        (statement.parameters.changes as Row[]).map((change) => ({
          index: change.index,
          target: relationship('CAUSED_BY', edgeProps('e-old', { weight: 0.9, lastConfirmedAt: T1 })),
          fromId: 'a',
          toId: 'b',
          event: eventNode(
            eventProps('ev-link', { source: 'MANUAL', edgeId: 'e-old', oldWeight: 0.4, newWeight: 0.9, delta: 0.5 }),
          ),
          revertOk: true,
        })),
    });
    const { edge, created } = await tck.store.linkEdge(WS, { ...link, weight: 0.9 }, T1);
    expect(created).toBe(false);
    expect(edge).toMatchObject({ id: 'e-old', weight: 0.9, lastConfirmedAt: T1 });
    expect(tck.names()).toEqual(['WRITE linkPrepare', 'WRITE linkConfirm', 'WRITE applyEdgeWeights']);
    expect(JSON.parse(tck.driver.statements[1]?.parameters.metadata as string)).toEqual({
      keep: 1,
      why: "it's `fine`",
    });
    expect(new Set(tck.driver.statements.map((statement) => statement.attempt))).toEqual(new Set([1]));
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE linkPrepare (op linkEdge)
      \`\`\`cypher
      // engram:linkPrepare
      OPTIONAL MATCH (a:Memory {workspace: $ws, id: $fromId})
      OPTIONAL MATCH (b:Memory {workspace: $ws, id: $toId})
      FOREACH (n IN CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END | SET n._engramLock = true REMOVE n._engramLock)
      WITH a, b
      OPTIONAL MATCH (source:Memory {workspace: $ws, id: $fromId})-[r]->(target:Memory {workspace: $ws, id: $toId})
      USING INDEX SEEK source:Memory(workspace, id)
      USING INDEX SEEK target:Memory(workspace, id)
      WHERE type(r) = $type
      RETURN a IS NOT NULL AS fromFound, b IS NOT NULL AS toFound, r AS edge
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "fromId": "a",
        "toId": "b",
        "type": "CAUSED_BY"
      }
      \`\`\`

      # WRITE linkConfirm (op linkEdge)
      \`\`\`cypher
      // engram:linkConfirm
      MATCH (a:Memory {workspace: $ws, id: $fromId})-[r]->(b:Memory {workspace: $ws, id: $toId})
      WHERE r.id = $edgeId
      SET r.metadata = $metadata, r.lastConfirmedAt = $now, r.updatedAt = $now
      RETURN r AS edge, a.id AS fromId, b.id AS toId
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "fromId": "a",
        "toId": "b",
        "edgeId": "e-old",
        "metadata": "{\\"keep\\":1,\\"why\\":\\"it's \`fine\`\\"}",
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`

      # WRITE applyEdgeWeights (op linkEdge)
      \`\`\`cypher
      // engram:applyEdgeWeights
      UNWIND $changes AS change
      MATCH (k:EdgeRef {workspace: $ws, id: change.targetId})
      MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
      WHERE r.id = k.id
      SET r.prevWeight = r.weight,
        r.weight = round(CASE
          WHEN change.isDelta AND r.weight + change.amount < $floor THEN $floor
          WHEN change.isDelta AND r.weight + change.amount > $ceiling THEN $ceiling
          WHEN change.isDelta THEN r.weight + change.amount
          WHEN change.amount < $floor THEN $floor
          WHEN change.amount > $ceiling THEN $ceiling
          ELSE change.amount
        END, 12)
      SET k.negWeight = -r.weight
      WITH change, r, a.id AS fromId, b.id AS toId
      CALL (change) {
        MATCH (last:WeightEvent {workspace: $ws, edgeId: change.targetId})
        USING INDEX SEEK last:WeightEvent(workspace, edgeId, at, id)
        WHERE last.at IS NOT NULL AND last.id IS NOT NULL
        WITH last
        ORDER BY last.workspace DESC, last.edgeId DESC, last.at DESC, last.id DESC
        LIMIT 1
        RETURN collect(last)[0] AS newest
      }
      WITH change, r, fromId, toId, CASE
        WHEN newest IS NULL OR $now > newest.at THEN $now
        WHEN change.eventId > newest.id THEN newest.at
        ELSE [t IN [datetime(newest.at) + duration({milliseconds: 1})] | toString(date(t)) + 'T' +
          right('0' + toString(t.epochMillis / 3600000 % 24), 2) + ':' + right('0' + toString(t.epochMillis / 60000 % 60), 2) + ':' +
          right('0' + toString(t.epochMillis / 1000 % 60), 2) + '.' + right('00' + toString(t.epochMillis % 1000), 3) + 'Z'][0]
      END AS at
      SET r.updatedAt = at
      CREATE (e:WeightEvent {
        workspace: $ws, id: change.eventId, at: at, source: change.source, edgeId: change.targetId,
        oldWeight: r.prevWeight, newWeight: r.weight, delta: round(r.weight - r.prevWeight, 12),
        reason: change.reason
      })
      WITH change, r, e, fromId, toId
      OPTIONAL MATCH (reverted:WeightEvent {workspace: $ws, id: change.revertsEventId})
      SET reverted.revertedBy = CASE WHEN reverted.revertedBy IS NULL THEN change.eventId ELSE reverted.revertedBy END
      RETURN change.index AS index, r AS target, fromId, toId, e AS event,
        change.revertsEventId IS NULL OR coalesce(reverted.revertedBy = change.eventId, false) AS revertOk
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "changes": [
          {
            "index": 0,
            "eventId": "ev-link",
            "targetId": "e-old",
            "isDelta": false,
            "amount": 0.9,
            "source": "MANUAL",
            "reason": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
            "revertsEventId": null
          }
        ],
        "floor": -1.7976931348623157e+308,
        "ceiling": 1.7976931348623157e+308,
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`"
    `);
  });

  it('linkEdge (existing, same weight): confirms and writes no event', async () => {
    tck.driver.respond = answering({
      linkPrepare: () => [
        { fromFound: true, toFound: true, edge: relationship('CAUSED_BY', edgeProps('e-old', { weight: 0.7 })) },
      ],
      linkConfirm: () => [
        {
          edge: relationship('CAUSED_BY', edgeProps('e-old', { weight: 0.7, lastConfirmedAt: T1 })),
          fromId: 'a',
          toId: 'b',
        },
      ],
    });
    expect((await tck.store.linkEdge(WS, { ...link, weight: 0.7 }, T1)).created).toBe(false);
    expect(tck.names()).toEqual(['WRITE linkPrepare', 'WRITE linkConfirm']);
  });

  it('linkEdge: a missing endpoint is NOT_FOUND after the first statement', async () => {
    tck.driver.respond = answering({ linkPrepare: () => [{ fromFound: true, toFound: false, edge: null }] });
    expect((await expectCode(tck.store.linkEdge(WS, link, T1), 'NOT_FOUND')).message).toBe(
      'No memory "b" in this workspace',
    );
    expect(tck.names()).toEqual(['WRITE linkPrepare']);
  });

  it('linkEdge: a deadlock makes the driver run the transaction function again, which is safe', async () => {
    let deadlocks = 1;
    tck.driver.respond = answering({
      linkPrepare: () => [{ fromFound: true, toFound: true, edge: null }],
      linkCreate: (statement) => {
        if (deadlocks-- > 0) throw serverError('Neo.TransientError.Transaction.DeadlockDetected');
        return [
          { edge: relationship('CAUSED_BY', edgeProps(statement.parameters.id as string)), fromId: 'a', toId: 'b' },
        ];
      },
      applyEdgeWeights: reasonNoted,
    });
    const { edge, created } = await tck.store.linkEdge(WS, link, T1);
    expect({ id: edge.id, created }).toEqual({ id: 'e-new', created: true });
    // The reason's event goes with the attempt that creates the edge, under the same event id.
    expect(tck.driver.statements.map((statement) => `${statement.name}#${statement.attempt}`)).toEqual([
      'linkPrepare#1',
      'linkCreate#1',
      'linkPrepare#2',
      'linkCreate#2',
      'applyEdgeWeights#2',
    ]);
    expect(tck.driver.statements.at(-1)?.parameters.changes).toEqual([
      expect.objectContaining({ eventId: 'ev-link', targetId: 'e-new', reason: HOSTILE_TEXT }),
    ]);
  });

  it('linkEdge: a retry that finds the edge its committed first attempt created reports it as created', async () => {
    tck.driver.respond = answering({
      linkPrepare: () => [{ fromFound: true, toFound: true, edge: relationship('CAUSED_BY', edgeProps('e-new')) }],
    });
    expect((await tck.store.linkEdge(WS, link, T1)).created).toBe(true);
    expect(tck.names()).toEqual(['WRITE linkPrepare']);
  });
});

describeEverySentStatement(tck.everyStatement, 4);
