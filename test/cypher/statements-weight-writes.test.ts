import { describe, expect, it } from 'vitest';
import {
  type CapturedStatement,
  eventNode,
  memoryNode,
  type Row,
  relationship,
  serverError,
} from './recording-driver.js';
import {
  answering,
  describeEverySentStatement,
  edgeProps,
  eventProps,
  expectCode,
  HOSTILE_TEXT,
  memoryProps,
  T1,
  useRecordingStore,
  WS,
} from './tck.js';

/** TCK (see tck.ts): weight changes, each with its WeightEvent, in runs of distinct targets. */

const tck = useRecordingStore();

describe('writes: weights', () => {
  const change = (eventId: string, kind: 'edge' | 'memory', id: string, extra: object = {}) => ({
    eventId,
    target: { kind, id },
    operation: { kind: 'delta' as const, delta: -0.3 },
    source: 'CONSCIOUS' as const,
    reason: HOSTILE_TEXT,
    ...extra,
  });

  const applied = (statement: CapturedStatement): Row[] =>
    (statement.parameters.changes as Row[]).map((row) => ({
      index: row.index,
      target:
        statement.name === 'applyEdgeWeights'
          ? relationship('CITES', edgeProps(row.targetId as string, { weight: 0.2 }))
          : memoryNode(memoryProps(row.targetId as string, { weight: 0.2 })),
      fromId: statement.name === 'applyEdgeWeights' ? 'a' : null,
      toId: statement.name === 'applyEdgeWeights' ? 'b' : null,
      event: eventNode(
        eventProps(
          row.eventId as string,
          statement.name === 'applyEdgeWeights' ? { edgeId: row.targetId } : { memoryId: row.targetId },
        ),
      ),
      revertOk: true,
    }));

  it('applyWeightChanges: one statement per run of distinct targets, in one transaction, answers in change order', async () => {
    tck.driver.respond = answering({ applyEdgeWeights: applied, applyMemoryWeights: applied });
    const result = await tck.store.applyWeightChanges(
      WS,
      [
        change('ev1', 'edge', 'e1'),
        change('ev2', 'edge', 'e2', { operation: { kind: 'set', value: 0.9 }, source: 'MANUAL' }),
        change('ev3', 'edge', 'e1'),
        change('ev4', 'memory', 'm1', { source: 'AGENT' }),
      ],
      { floor: 0, ceiling: 1 },
      T1,
    );
    expect(result.map((entry) => [entry.event.id, entry.edge?.id ?? null, entry.memory?.id ?? null])).toEqual([
      ['ev1', 'e1', null],
      ['ev2', 'e2', null],
      ['ev3', 'e1', null],
      ['ev4', null, 'm1'],
    ]);
    expect(tck.names()).toEqual(['WRITE applyEdgeWeights', 'WRITE applyEdgeWeights', 'WRITE applyMemoryWeights']);
    expect(new Set(tck.driver.statements.map((statement) => statement.op))).toEqual(new Set(['applyWeightChanges']));
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# WRITE applyEdgeWeights (op applyWeightChanges)
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
            "eventId": "ev1",
            "targetId": "e1",
            "isDelta": true,
            "amount": -0.3,
            "source": "CONSCIOUS",
            "reason": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
            "revertsEventId": null
          },
          {
            "index": 1,
            "eventId": "ev2",
            "targetId": "e2",
            "isDelta": false,
            "amount": 0.9,
            "source": "MANUAL",
            "reason": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
            "revertsEventId": null
          }
        ],
        "floor": 0,
        "ceiling": 1,
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`

      # WRITE applyEdgeWeights (op applyWeightChanges)
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
            "index": 2,
            "eventId": "ev3",
            "targetId": "e1",
            "isDelta": true,
            "amount": -0.3,
            "source": "CONSCIOUS",
            "reason": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
            "revertsEventId": null
          }
        ],
        "floor": 0,
        "ceiling": 1,
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`

      # WRITE applyMemoryWeights (op applyWeightChanges)
      \`\`\`cypher
      // engram:applyMemoryWeights
      UNWIND $changes AS change
      MATCH (m:Memory {workspace: $ws, id: change.targetId})
      SET m.prevWeight = m.weight,
        m.weight = round(CASE
          WHEN change.isDelta AND m.weight + change.amount < $floor THEN $floor
          WHEN change.isDelta AND m.weight + change.amount > $ceiling THEN $ceiling
          WHEN change.isDelta THEN m.weight + change.amount
          WHEN change.amount < $floor THEN $floor
          WHEN change.amount > $ceiling THEN $ceiling
          ELSE change.amount
        END, 12)
      WITH change, m, null AS fromId, null AS toId
      CALL (change) {
        MATCH (last:WeightEvent {workspace: $ws, memoryId: change.targetId})
        USING INDEX SEEK last:WeightEvent(workspace, memoryId, at, id)
        WHERE last.at IS NOT NULL AND last.id IS NOT NULL
        WITH last
        ORDER BY last.workspace DESC, last.memoryId DESC, last.at DESC, last.id DESC
        LIMIT 1
        RETURN collect(last)[0] AS newest
      }
      WITH change, m, fromId, toId, CASE
        WHEN newest IS NULL OR $now > newest.at THEN $now
        WHEN change.eventId > newest.id THEN newest.at
        ELSE [t IN [datetime(newest.at) + duration({milliseconds: 1})] | toString(date(t)) + 'T' +
          right('0' + toString(t.epochMillis / 3600000 % 24), 2) + ':' + right('0' + toString(t.epochMillis / 60000 % 60), 2) + ':' +
          right('0' + toString(t.epochMillis / 1000 % 60), 2) + '.' + right('00' + toString(t.epochMillis % 1000), 3) + 'Z'][0]
      END AS at
      SET m.updatedAt = at
      CREATE (e:WeightEvent {
        workspace: $ws, id: change.eventId, at: at, source: change.source, memoryId: change.targetId,
        oldWeight: m.prevWeight, newWeight: m.weight, delta: round(m.weight - m.prevWeight, 12),
        reason: change.reason
      })
      WITH change, m, e, fromId, toId
      OPTIONAL MATCH (reverted:WeightEvent {workspace: $ws, id: change.revertsEventId})
      SET reverted.revertedBy = CASE WHEN reverted.revertedBy IS NULL THEN change.eventId ELSE reverted.revertedBy END
      RETURN change.index AS index, m AS target, fromId, toId, e AS event,
        change.revertsEventId IS NULL OR coalesce(reverted.revertedBy = change.eventId, false) AS revertOk
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "changes": [
          {
            "index": 3,
            "eventId": "ev4",
            "targetId": "m1",
            "isDelta": true,
            "amount": -0.3,
            "source": "AGENT",
            "reason": "$ws }) RETURN 1 UNION MATCH (n) RETURN n //",
            "revertsEventId": null
          }
        ],
        "floor": 0,
        "ceiling": 1,
        "now": "2099-01-01T00:00:01.000Z"
      }
      \`\`\`"
    `);
  });

  it('applyWeightChanges: a missing target is NOT_FOUND (the transaction rolls back)', async () => {
    tck.driver.respond = answering({ applyEdgeWeights: (statement) => applied(statement).slice(0, 1) });
    const error = await expectCode(
      tck.store.applyWeightChanges(
        WS,
        [change('ev1', 'edge', 'e1'), change('ev2', 'edge', 'e2')],
        { floor: 0, ceiling: 1 },
        T1,
      ),
      'NOT_FOUND',
    );
    expect(error.message).toBe('No edge with id "e2" in this workspace');
  });

  it('applyWeightChanges: a revert of a missing or reverted event is CONFLICT', async () => {
    tck.driver.respond = answering({
      applyEdgeWeights: (statement) => applied(statement).map((row) => ({ ...row, revertOk: false })),
    });
    await expectCode(
      tck.store.applyWeightChanges(
        WS,
        [change('ev5', 'edge', 'e1', { revertsEventId: 'ev1', source: 'MANUAL' })],
        { floor: 0, ceiling: 1 },
        T1,
      ),
      'CONFLICT',
    );
    expect(tck.driver.statements[0]?.parameters.changes).toEqual([
      expect.objectContaining({ revertsEventId: 'ev1', isDelta: true, amount: -0.3 }),
    ]);
  });

  it('applyWeightChanges: a retry whose first attempt committed answers from the stored events', async () => {
    tck.driver.respond = answering({
      applyEdgeWeights: () => {
        throw serverError('Neo.ClientError.Schema.ConstraintValidationFailed');
      },
      getWeightEvents: () => [{ eventId: 'ev1', event: eventNode(eventProps('ev1', { edgeId: 'e1' })) }],
      getEdges: () => [
        { edgeId: 'e1', edge: relationship('CITES', edgeProps('e1', { weight: 0.2 })), fromId: 'a', toId: 'b' },
      ],
    });
    const [result] = await tck.store.applyWeightChanges(
      WS,
      [change('ev1', 'edge', 'e1')],
      { floor: 0, ceiling: 1 },
      T1,
    );
    expect(result).toMatchObject({
      previousWeight: 0.5,
      newWeight: 0.2,
      event: { id: 'ev1' },
      edge: { id: 'e1', weight: 0.2 },
      memory: null,
    });
  });

  it('applyWeightChanges: sends nothing for no changes', async () => {
    expect(await tck.store.applyWeightChanges(WS, [], { floor: 0, ceiling: 1 }, T1)).toEqual([]);
    expect(tck.driver.statements).toEqual([]);
  });
});

describeEverySentStatement(tck.everyStatement, 2);
