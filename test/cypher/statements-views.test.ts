import { int } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { eventNode, relationship } from './recording-driver.js';
import {
  answering,
  describeEverySentStatement,
  edgeProps,
  eventProps,
  expectCode,
  T0,
  T1,
  useRecordingStore,
  WS,
} from './tck.js';

/** TCK (see tck.ts): Weight history reads and the research views' typed-edge reads. */

const tck = useRecordingStore();

describe('reads: weight events and research views', () => {
  it('listWeightEvents: present filters become pattern properties; newest first', async () => {
    tck.driver.respond = answering({
      listWeightEvents: () => [
        { event: eventNode(eventProps('ev1', { at: T0, edgeId: 'e1' })) },
        { event: eventNode(eventProps('ev2', { at: T1, edgeId: 'e1' })) },
      ],
    });
    const events = await tck.store.listWeightEvents(WS, {
      edgeId: 'e1',
      memoryId: null,
      source: 'CONSCIOUS',
      limit: 10,
    });
    expect(events.map((event) => event.id)).toEqual(['ev2', 'ev1']);
    await tck.store.listWeightEvents(WS, { edgeId: null, memoryId: null, source: null, limit: 10 });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ listWeightEvents:edgeId+source (op listWeightEvents)
      \`\`\`cypher
      // engram:listWeightEvents:edgeId+source
      MATCH (e:WeightEvent {workspace: $ws, edgeId: $edgeId, source: $source})
      USING INDEX SEEK e:WeightEvent(workspace, edgeId, source, at, id)
      WHERE e.at IS NOT NULL AND e.id IS NOT NULL
      WITH e
      ORDER BY e.workspace DESC, e.edgeId DESC, e.source DESC, e.at DESC, e.id DESC
      LIMIT $limit
      RETURN e AS event
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "limit": "int(10)",
        "edgeId": "e1",
        "source": "CONSCIOUS"
      }
      \`\`\`

      # READ listWeightEvents:all (op listWeightEvents)
      \`\`\`cypher
      // engram:listWeightEvents:all
      MATCH (e:WeightEvent {workspace: $ws})
      USING INDEX SEEK e:WeightEvent(workspace, at, id)
      WHERE e.at IS NOT NULL AND e.id IS NOT NULL
      WITH e
      ORDER BY e.workspace DESC, e.at DESC, e.id DESC
      LIMIT $limit
      RETURN e AS event
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "limit": "int(10)"
      }
      \`\`\`"
    `);
  });

  it('listWeightEvents after a cursor: two seeks (the rest of its instant, then older), its position as parameters', async () => {
    await tck.store.listWeightEvents(WS, {
      edgeId: null,
      memoryId: 'm1',
      source: null,
      limit: 3,
      after: { at: T0, id: 'ev-cursor' },
    });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ listWeightEvents:memoryId+after (op listWeightEvents)
      \`\`\`cypher
      // engram:listWeightEvents:memoryId+after
      CALL () {
        MATCH (e:WeightEvent {workspace: $ws, memoryId: $memoryId, at: $afterAt})
        USING INDEX SEEK e:WeightEvent(workspace, memoryId, at, id)
        WHERE e.id < $afterId
        WITH e
        ORDER BY e.workspace DESC, e.memoryId DESC, e.at DESC, e.id DESC
        LIMIT $limit
        RETURN e
        UNION ALL
        MATCH (e:WeightEvent {workspace: $ws, memoryId: $memoryId})
        USING INDEX SEEK e:WeightEvent(workspace, memoryId, at, id)
        WHERE e.at < $afterAt AND e.id IS NOT NULL
        WITH e
        ORDER BY e.workspace DESC, e.memoryId DESC, e.at DESC, e.id DESC
        LIMIT $limit
        RETURN e
      }
      RETURN e AS event
      ORDER BY e.at DESC, e.id DESC
      LIMIT $limit
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "limit": "int(3)",
        "memoryId": "m1",
        "afterAt": "2099-01-01T00:00:00.000Z",
        "afterId": "ev-cursor"
      }
      \`\`\`"
    `);
  });

  it('getEdgeHistories: one statement, a per-edge LIMIT inside CALL (edgeId) { ... }', async () => {
    tck.driver.respond = answering({
      getEdgeHistories: () => [
        { edgeId: 'e2', event: eventNode(eventProps('ev3', { edgeId: 'e2' })) },
        { edgeId: 'e1', event: eventNode(eventProps('ev1', { edgeId: 'e1', at: T0 })) },
        { edgeId: 'e1', event: eventNode(eventProps('ev2', { edgeId: 'e1' })) },
      ],
    });
    const histories = await tck.store.getEdgeHistories(WS, ['e1', 'missing', 'e2'], 2);
    expect(histories.map((events) => events.map((event) => event.id))).toEqual([['ev2', 'ev1'], [], ['ev3']]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ getEdgeHistories (op getEdgeHistories)
      \`\`\`cypher
      // engram:getEdgeHistories
      UNWIND $ids AS edgeId
      CALL (edgeId) {
        MATCH (e:WeightEvent {workspace: $ws, edgeId: edgeId})
        USING INDEX SEEK e:WeightEvent(workspace, edgeId, at, id)
        WHERE e.at IS NOT NULL AND e.id IS NOT NULL
        WITH e
        ORDER BY e.workspace DESC, e.edgeId DESC, e.at DESC, e.id DESC
        LIMIT $limit
        RETURN e
      }
      RETURN edgeId, e AS event
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "e1",
          "missing",
          "e2"
        ],
        "limit": "int(2)"
      }
      \`\`\`"
    `);
  });

  it('getWeightEvents: one statement, in key order with null for misses', async () => {
    tck.driver.respond = answering({
      getWeightEvents: () => [{ eventId: 'ev2', event: eventNode(eventProps('ev2', { edgeId: 'e1' })) }],
    });
    expect((await tck.store.getWeightEvents(WS, ['ev1', 'ev2'])).map((event) => event?.id ?? null)).toEqual([
      null,
      'ev2',
    ]);
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ getWeightEvents (op getWeightEvents)
      \`\`\`cypher
      // engram:getWeightEvents
      UNWIND $ids AS eventId
      MATCH (e:WeightEvent {workspace: $ws, id: eventId})
      RETURN eventId, e AS event
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "ids": [
          "ev1",
          "ev2"
        ]
      }
      \`\`\`"
    `);
  });

  it('listEdgesByType: validated types in the pattern, the keyset cursor as parameters', async () => {
    tck.driver.respond = answering({
      listEdgesByType: () => [
        { edge: relationship('CONTRADICTS', edgeProps('e9', { weight: 0.4 })), fromId: 'a', toId: 'b' },
      ],
    });
    const page = await tck.store.listEdgesByType(WS, {
      types: ['CONTRADICTS', 'FAILS_TO_REPRODUCE'],
      minWeight: 0.2,
      pruneThreshold: 0.05,
      after: { weight: 0.5, id: 'e5' },
      limit: 10,
    });
    expect(page.map((edge) => edge.id)).toEqual(['e9']);
    await tck.store.listEdgesByType(WS, {
      types: ['CONTRADICTS'],
      minWeight: null,
      pruneThreshold: 0.05,
      after: null,
      limit: 10,
    });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ listEdgesByType (op listEdgesByType)
      \`\`\`cypher
      // engram:listEdgesByType
      MATCH (a:Memory {workspace: $ws})-[r:\`CONTRADICTS\`|\`FAILS_TO_REPRODUCE\`]->(b:Memory)
      USING INDEX SEEK a:Memory(workspace, id)
      WHERE a.id IS NOT NULL AND r.weight > $above AND r.weight >= $atLeast
        AND (r.weight < $afterWeight OR (r.weight = $afterWeight AND r.id > $afterId))
      RETURN r AS edge, a.id AS fromId, b.id AS toId
      ORDER BY r.weight DESC, r.id ASC
      LIMIT $limit
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "above": 0.05,
        "atLeast": 0.2,
        "limit": "int(10)",
        "afterWeight": 0.5,
        "afterId": "e5"
      }
      \`\`\`

      # READ listEdgesByType (op listEdgesByType)
      \`\`\`cypher
      // engram:listEdgesByType
      MATCH (a:Memory {workspace: $ws})-[r:\`CONTRADICTS\`]->(b:Memory)
      USING INDEX SEEK a:Memory(workspace, id)
      WHERE a.id IS NOT NULL AND r.weight > $above AND r.weight >= $atLeast
      RETURN r AS edge, a.id AS fromId, b.id AS toId
      ORDER BY r.weight DESC, r.id ASC
      LIMIT $limit
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "above": 0.05,
        "atLeast": -1,
        "limit": "int(10)"
      }
      \`\`\`"
    `);
  });

  it('rankTargetsBySources: validated types in the pattern, counts read as numbers', async () => {
    tck.driver.respond = answering({ rankTargetsBySources: () => [{ memoryId: 'm1', sources: int(3), weight: 2.1 }] });
    expect(
      await tck.store.rankTargetsBySources(WS, {
        types: ['VALIDATES', 'REPLICATES'],
        minSources: 2,
        minWeight: null,
        pruneThreshold: 0.05,
        limit: 5,
      }),
    ).toEqual([{ memoryId: 'm1', sources: 3, weight: 2.1 }]);
    await tck.store.rankTargetsBySources(WS, {
      types: ['VALIDATES'],
      minSources: 2,
      minWeight: null,
      pruneThreshold: 0.05,
      after: { sources: 3, weight: 2.1, memoryId: 'm1' },
      limit: 5,
    });
    expect(tck.sent()).toMatchInlineSnapshot(`
      "# READ rankTargetsBySources (op rankTargetsBySources)
      \`\`\`cypher
      // engram:rankTargetsBySources
      MATCH (origin:Memory {workspace: $ws})-[r:\`VALIDATES\`|\`REPLICATES\`]->(target:Memory)
      USING INDEX SEEK origin:Memory(workspace, id)
      WHERE origin.id IS NOT NULL AND r.weight > $above AND r.weight >= $atLeast
      WITH target, origin, max(r.weight) AS strongest
      WITH target.id AS memoryId, count(origin) AS sources, round(sum(strongest), 12) AS weight
      WHERE sources >= $minSources
      RETURN memoryId, sources, weight
      ORDER BY sources DESC, weight DESC, memoryId ASC
      LIMIT $limit
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "above": 0.05,
        "atLeast": -1,
        "minSources": "int(2)",
        "limit": "int(5)"
      }
      \`\`\`

      # READ rankTargetsBySources (op rankTargetsBySources)
      \`\`\`cypher
      // engram:rankTargetsBySources
      MATCH (origin:Memory {workspace: $ws})-[r:\`VALIDATES\`]->(target:Memory)
      USING INDEX SEEK origin:Memory(workspace, id)
      WHERE origin.id IS NOT NULL AND r.weight > $above AND r.weight >= $atLeast
      WITH target, origin, max(r.weight) AS strongest
      WITH target.id AS memoryId, count(origin) AS sources, round(sum(strongest), 12) AS weight
      WHERE sources >= $minSources
        AND (sources < $afterSources OR (sources = $afterSources AND (weight < $afterWeight OR (weight = $afterWeight AND memoryId > $afterId))))
      RETURN memoryId, sources, weight
      ORDER BY sources DESC, weight DESC, memoryId ASC
      LIMIT $limit
      \`\`\`
      \`\`\`json
      {
        "ws": "ws-tck",
        "above": 0.05,
        "atLeast": -1,
        "minSources": "int(2)",
        "limit": "int(5)",
        "afterSources": "int(3)",
        "afterWeight": 2.1,
        "afterId": "m1"
      }
      \`\`\`"
    `);
  });

  it('rejects a relation type that is not UPPER_SNAKE before anything is sent', async () => {
    const bad = 'CITES`]->() DETACH DELETE n //';
    await expectCode(
      tck.store.listEdgesByType(WS, { types: [bad], minWeight: null, pruneThreshold: 0.05, after: null, limit: 5 }),
      'BAD_USER_INPUT',
    );
    expect(tck.driver.statements).toEqual([]);
    tck.driver.respond = answering({ linkPrepare: () => [{ fromFound: true, toFound: true, edge: null }] });
    const link = {
      id: 'e1',
      fromId: 'a',
      toId: 'b',
      type: bad,
      weight: null,
      defaultWeight: 0.5,
      metadata: null,
      reason: null,
      eventId: 'ev',
    };
    await expectCode(tck.store.linkEdge(WS, link, T0), 'BAD_USER_INPUT');
    await expectCode(
      tck.store.importBatch(WS, { memories: [], edges: [{ ...link, weight: 0.5 }] }, T0),
      'BAD_USER_INPUT',
    );
    expect(tck.driver.statements.map((statement) => statement.name)).toEqual(['linkPrepare']);
  });
});

describeEverySentStatement(tck.everyStatement, 6);
