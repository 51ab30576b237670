import { isDateTime, isInt, isLocalDateTime, isNode, isRelationship } from 'neo4j-driver';
import type { AdjustmentSource, EdgeRecord, Json, MemoryRecord, WeightEventRecord } from '../../domain/types.js';
import type { RecordLike } from './driver.js';

/**
 * Turns what the driver returns (Node, Relationship, Integer, temporal values, missing properties)
 * into the domain's plain records, exactly as the SQLite store returns them: numbers as numbers,
 * timestamps as ISO-8601 UTC strings with milliseconds, absent properties as null, metadata parsed.
 * A value of the wrong shape is a corrupted graph, not a user error: it throws a plain Error.
 */

type Properties = Record<string, unknown>;

function fail(field: string, value: unknown): never {
  throw new Error(`Neo4j store: unexpected value for ${field}: ${typeof value}`);
}

/** Node or Relationship → its properties; a plain map (e.g. `properties(r)`) is taken as is. */
function propertiesOf(value: unknown, what: string): Properties {
  if (isNode(value as never) || isRelationship(value as never)) return (value as { properties: Properties }).properties;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Properties;
  return fail(what, value);
}

/** Integer (lossless 64-bit), bigint or float → number. */
export function toNumber(value: unknown, field: string): number {
  if (typeof value === 'number') return value;
  if (isInt(value)) return (value as { toNumber(): number }).toNumber();
  if (typeof value === 'bigint') return Number(value);
  return fail(field, value);
}

/**
 * Timestamps are stored as the ISO strings the domain wrote, and come back unchanged. Values
 * written by other tools as DateTime (or a zone-less LocalDateTime, read as UTC) are turned into
 * the same form: `2099-01-01T00:00:01.000Z`.
 */
export function toIsoString(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (isDateTime(value as never)) return (value as { toStandardDate(): Date }).toStandardDate().toISOString();
  if (isLocalDateTime(value as never)) {
    const t = value as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'nanosecond', unknown>;
    const n = (part: keyof typeof t) => toNumber(t[part], field);
    return new Date(
      Date.UTC(
        n('year'),
        n('month') - 1,
        n('day'),
        n('hour'),
        n('minute'),
        n('second'),
        Math.floor(n('nanosecond') / 1e6),
      ),
    ).toISOString();
  }
  return fail(field, value);
}

const optional = <T>(value: unknown, map: (present: unknown) => T): T | null =>
  value === undefined || value === null ? null : map(value);

export function toStringValue(value: unknown, field: string): string {
  return typeof value === 'string' ? value : fail(field, value);
}

/** Metadata is stored as a JSON string (Neo4j properties cannot hold maps). */
export function toJson(value: unknown, field = 'metadata'): Json | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return JSON.parse(value) as Json;
  return fail(field, value);
}

export const encodeJson = (value: Json | null): string | null => (value === null ? null : JSON.stringify(value));

function toStringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((item) => toStringValue(item, field));
  return fail(field, value);
}

export function toMemory(value: unknown): MemoryRecord {
  const p = propertiesOf(value, 'memory');
  return {
    id: toStringValue(p.id, 'memory.id'),
    key: optional(p.key, (key) => toStringValue(key, 'memory.key')),
    title: toStringValue(p.title, 'memory.title'),
    content: optional(p.content, (content) => toStringValue(content, 'memory.content')),
    kind: optional(p.kind, (kind) => toStringValue(kind, 'memory.kind')),
    tags: toStringList(p.tags, 'memory.tags'),
    weight: toNumber(p.weight, 'memory.weight'),
    metadata: toJson(p.metadata, 'memory.metadata'),
    createdAt: toIsoString(p.createdAt, 'memory.createdAt'),
    updatedAt: toIsoString(p.updatedAt, 'memory.updatedAt'),
  };
}

/**
 * An edge from a Relationship (its type read from the relationship) or from a property map plus
 * its type (what a statement returns for an edge it just deleted). The endpoints' memory ids come
 * from the statement, since a relationship only knows its endpoints' internal ids.
 */
export function toEdge(value: unknown, fromId: unknown, toId: unknown, type?: unknown): EdgeRecord {
  const p = propertiesOf(value, 'edge');
  const relationshipType = isRelationship(value as never) ? (value as { type: string }).type : type;
  return {
    id: toStringValue(p.id, 'edge.id'),
    fromId: toStringValue(fromId, 'edge.fromId'),
    toId: toStringValue(toId, 'edge.toId'),
    type: toStringValue(relationshipType, 'edge.type'),
    weight: toNumber(p.weight, 'edge.weight'),
    metadata: toJson(p.metadata, 'edge.metadata'),
    createdAt: toIsoString(p.createdAt, 'edge.createdAt'),
    updatedAt: toIsoString(p.updatedAt, 'edge.updatedAt'),
    lastConfirmedAt: optional(p.lastConfirmedAt, (at) => toIsoString(at, 'edge.lastConfirmedAt')),
  };
}

const SOURCES: ReadonlySet<string> = new Set<AdjustmentSource>(['AGENT', 'CONSCIOUS', 'MANUAL']);

export function toWeightEvent(value: unknown): WeightEventRecord {
  const p = propertiesOf(value, 'weight event');
  const source = toStringValue(p.source, 'event.source');
  if (!SOURCES.has(source)) fail('event.source', source);
  return {
    id: toStringValue(p.id, 'event.id'),
    at: toIsoString(p.at, 'event.at'),
    source: source as AdjustmentSource,
    edgeId: optional(p.edgeId, (id) => toStringValue(id, 'event.edgeId')),
    memoryId: optional(p.memoryId, (id) => toStringValue(id, 'event.memoryId')),
    old: toNumber(p.oldWeight, 'event.oldWeight'),
    new: toNumber(p.newWeight, 'event.newWeight'),
    delta: toNumber(p.delta, 'event.delta'),
    reason: optional(p.reason, (reason) => toStringValue(reason, 'event.reason')),
    revertedBy: optional(p.revertedBy, (id) => toStringValue(id, 'event.revertedBy')),
  };
}

/** The edge of a statement row that returns `edge`, `fromId` and `toId`. */
export function edgeOf(record: RecordLike): EdgeRecord {
  return toEdge(record.get('edge'), record.get('fromId'), record.get('toId'));
}
