import { statement } from './statement.js';

/**
 * Filters present become equality predicates in the pattern. Each index is a composite
 * (workspace, [edgeId | memoryId | source,] at, id) index, which holds the events in exactly the
 * newest-first order (at desc, then id desc). Ordered by every property of the index, Neo4j reads
 * it in order and stops at `$limit` (ordered by at and id alone, it read and sorted every event of
 * the edge or workspace, even with id in the index). Neo4j seeks a composite index only with a
 * predicate on every property: hence `IS NOT NULL` on `at` and `id` (without them each call
 * scanned every WeightEvent of the database). The hint forces a seek of the named index, so the
 * plan does not depend on statistics (after many events were written and deleted, Neo4j planned a
 * full scan of the index even with a plain `USING INDEX` hint).
 *
 * With `after` (a page cursor: the last event shown) the page is two such reads, each stopping at
 * `$limit`: the events of the cursor's instant with a smaller id (one write's batch shares an
 * instant and may span pages), then the older events; only their at most 2 x `$limit` rows are
 * sorted. A single `at <= $afterAt` range would read again every event of that instant the
 * earlier pages showed.
 */
export function listWeightEvents(filter: {
  edgeId: boolean;
  memoryId: boolean;
  source: boolean;
  after?: boolean;
}): string {
  const properties = ['workspace: $ws'];
  if (filter.edgeId) properties.push('edgeId: $edgeId');
  if (filter.memoryId) properties.push('memoryId: $memoryId');
  if (filter.source) properties.push('source: $source');
  const name = (['edgeId', 'memoryId', 'source', 'after'] as const).filter((key) => filter[key]).join('+') || 'all';
  const target = filter.edgeId ? 'edgeId' : filter.memoryId ? 'memoryId' : null;
  // Every equality the filter has, in the order of an index that has them all (schema.ts).
  const equal = [...(target ? [target] : []), ...(filter.source ? ['source'] : [])];
  const keys = ['workspace', ...equal, 'at', 'id'];
  /** The events matching `where` (and `more` pattern properties), in index order, at most $limit. */
  const inIndexOrder = (indent: string, where: string, ...more: string[]) =>
    [
      `MATCH (e:WeightEvent {${[...properties, ...more].join(', ')}})`,
      `USING INDEX SEEK e:WeightEvent(${keys.join(', ')})`,
      `WHERE ${where}`,
      'WITH e',
      `ORDER BY ${keys.map((key) => `e.${key} DESC`).join(', ')}`,
      'LIMIT $limit',
    ].join(`\n${indent}`);
  if (!filter.after) {
    return statement(
      `listWeightEvents:${name}`,
      `
    ${inIndexOrder('    ', 'e.at IS NOT NULL AND e.id IS NOT NULL')}
    RETURN e AS event
    `,
    );
  }
  return statement(
    `listWeightEvents:${name}`,
    `
    CALL () {
      ${inIndexOrder('      ', 'e.id < $afterId', 'at: $afterAt')}
      RETURN e
      UNION ALL
      ${inIndexOrder('      ', 'e.at < $afterAt AND e.id IS NOT NULL')}
      RETURN e
    }
    RETURN e AS event
    ORDER BY e.at DESC, e.id DESC
    LIMIT $limit
    `,
  );
}

/** Newest `$limit` events per edge, in index order (see listWeightEvents); the LIMIT is per edge. */
export const GET_EDGE_HISTORIES = statement(
  'getEdgeHistories',
  `
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
  `,
);

export const GET_WEIGHT_EVENTS = statement(
  'getWeightEvents',
  `
  UNWIND $ids AS eventId
  MATCH (e:WeightEvent {workspace: $ws, id: eventId})
  RETURN eventId, e AS event
  `,
);

/**
 * The clamped read-modify-write, written so that Neo4j locks before it reads: the right-hand side
 * of each SET item reads the property it writes (a "direct dependency"), so Cypher takes the
 * entity's write lock before evaluating it, and concurrent changes queue instead of losing
 * updates. `prevWeight` keeps the replaced value, as in the SQLite store.
 */
function setWeight(entity: string): string {
  return `SET ${entity}.prevWeight = ${entity}.weight,
    ${entity}.weight = round(CASE
      WHEN change.isDelta AND ${entity}.weight + change.amount < $floor THEN $floor
      WHEN change.isDelta AND ${entity}.weight + change.amount > $ceiling THEN $ceiling
      WHEN change.isDelta THEN ${entity}.weight + change.amount
      WHEN change.amount < $floor THEN $floor
      WHEN change.amount > $ceiling THEN $ceiling
      ELSE change.amount
    END, 12)`;
}

/**
 * `instant` (an ISO string in UTC) plus one millisecond, written as the domain writes instants
 * (`2099-01-01T00:00:01.000Z`, which Cypher's toString does not keep). The time of day comes
 * from epoch milliseconds, and the date from the same UTC instant.
 */
const nextMillisecond = (instant: string): string =>
  `[t IN [datetime(${instant}) + duration({milliseconds: 1})] | toString(date(t)) + 'T' +
      right('0' + toString(t.epochMillis / 3600000 % 24), 2) + ':' + right('0' + toString(t.epochMillis / 60000 % 60), 2) + ':' +
      right('0' + toString(t.epochMillis / 1000 % 60), 2) + '.' + right('00' + toString(t.epochMillis % 1000), 3) + 'Z'][0]`;

/**
 * The event's time, read after the weight's SET took the target's lock, so the writer before has
 * committed its event: weightEventTime (domain/weights.ts) of the target's newest event, which
 * one seek of the target's (at, id) index finds. The aggregate gives a row even for a target
 * without events.
 */
function stampEvent(entity: string, target: 'edgeId' | 'memoryId'): string {
  return `CALL (change) {
    MATCH (last:WeightEvent {workspace: $ws, ${target}: change.targetId})
    USING INDEX SEEK last:WeightEvent(workspace, ${target}, at, id)
    WHERE last.at IS NOT NULL AND last.id IS NOT NULL
    WITH last
    ORDER BY last.workspace DESC, last.${target} DESC, last.at DESC, last.id DESC
    LIMIT 1
    RETURN collect(last)[0] AS newest
  }
  WITH change, ${entity}, fromId, toId, CASE
    WHEN newest IS NULL OR $now > newest.at THEN $now
    WHEN change.eventId > newest.id THEN newest.at
    ELSE ${nextMillisecond('newest.at')}
  END AS at
  SET ${entity}.updatedAt = at`;
}

/** The WeightEvent of each change, and the revert mark, in the same statement as the weight change. */
function recordEvent(entity: string, target: 'edgeId' | 'memoryId'): string {
  return `${stampEvent(entity, target)}
  CREATE (e:WeightEvent {
    workspace: $ws, id: change.eventId, at: at, source: change.source, ${target}: change.targetId,
    oldWeight: ${entity}.prevWeight, newWeight: ${entity}.weight, delta: round(${entity}.weight - ${entity}.prevWeight, 12),
    reason: change.reason
  })
  WITH change, ${entity}, e, fromId, toId
  OPTIONAL MATCH (reverted:WeightEvent {workspace: $ws, id: change.revertsEventId})
  SET reverted.revertedBy = CASE WHEN reverted.revertedBy IS NULL THEN change.eventId ELSE reverted.revertedBy END
  RETURN change.index AS index, ${entity} AS target, fromId, toId, e AS event,
    change.revertsEventId IS NULL OR coalesce(reverted.revertedBy = change.eventId, false) AS revertOk`;
}

/**
 * Weight changes to distinct edges, one row per change (the store never puts one edge twice in a
 * batch, so no row reads another row's write). A missing edge yields no row.
 */
export const APPLY_EDGE_WEIGHTS = statement(
  'applyEdgeWeights',
  `
  UNWIND $changes AS change
  MATCH (k:EdgeRef {workspace: $ws, id: change.targetId})
  MATCH (a:Memory {workspace: $ws, id: k.fromId})-[r]->(b:Memory {workspace: $ws, id: k.toId})
  WHERE r.id = k.id
  ${setWeight('r')}
  SET k.negWeight = -r.weight
  WITH change, r, a.id AS fromId, b.id AS toId
  ${recordEvent('r', 'edgeId')}
  `,
);

export const APPLY_MEMORY_WEIGHTS = statement(
  'applyMemoryWeights',
  `
  UNWIND $changes AS change
  MATCH (m:Memory {workspace: $ws, id: change.targetId})
  ${setWeight('m')}
  WITH change, m, null AS fromId, null AS toId
  ${recordEvent('m', 'memoryId')}
  `,
);
