import neo4j, { DateTime, Integer, int, LocalDateTime, Node, Relationship } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { toEdge, toIsoString, toJson, toMemory, toNumber, toWeightEvent } from '../../src/store/neo4j/records.js';

const node = (labels: string[], properties: Record<string, unknown>) => new Node(int(7), labels, properties, '4:db:7');
const rel = (type: string, properties: Record<string, unknown>) =>
  new Relationship(int(9), int(1), int(2), type, properties, '5:db:9');

describe('toNumber', () => {
  it('reads a driver Integer, a float and a bigint as numbers', () => {
    expect(toNumber(neo4j.int(42), 'n')).toBe(42);
    expect(toNumber(Integer.fromString('9007199254740991'), 'n')).toBe(Number.MAX_SAFE_INTEGER);
    expect(toNumber(0.75, 'n')).toBe(0.75);
    expect(toNumber(12n, 'n')).toBe(12);
  });

  it('refuses a value that is not a number, naming the field', () => {
    expect(() => toNumber('0.5', 'memory.weight')).toThrow(/memory\.weight/);
    expect(() => toNumber(null, 'degree')).toThrow(/degree/);
  });
});

describe('toIsoString', () => {
  it('returns stored ISO strings unchanged', () => {
    expect(toIsoString('2099-01-01T00:00:01.000Z', 'at')).toBe('2099-01-01T00:00:01.000Z');
  });

  it('turns a DateTime with an offset into UTC with milliseconds, as SQLite returns timestamps', () => {
    const utc = new DateTime(int(2099), int(1), int(1), int(0), int(0), int(1), int(123_456_789), int(0));
    expect(toIsoString(utc, 'at')).toBe('2099-01-01T00:00:01.123Z');
    const plusTwo = new DateTime(2099, 1, 1, 2, 0, 1, 0, 7200);
    expect(toIsoString(plusTwo, 'at')).toBe('2099-01-01T00:00:01.000Z');
  });

  it('reads a zone-less LocalDateTime as UTC', () => {
    expect(toIsoString(new LocalDateTime(2099, 12, 31, 23, 59, 59, 999_000_000), 'at')).toBe(
      '2099-12-31T23:59:59.999Z',
    );
  });

  it('refuses anything else', () => {
    expect(() => toIsoString(12, 'createdAt')).toThrow(/createdAt/);
  });
});

describe('toJson', () => {
  it('parses stored JSON text and maps a missing property to null', () => {
    expect(toJson('{"a":[1,"two",null]}')).toEqual({ a: [1, 'two', null] });
    expect(toJson('"text"')).toBe('text');
    expect(toJson(undefined)).toBeNull();
    expect(toJson(null)).toBeNull();
  });
});

describe('toMemory', () => {
  const full = {
    workspace: 'ws',
    id: 'm1',
    key: 'postgres-choice',
    title: 'Postgres',
    content: 'Chosen.',
    kind: 'decision',
    tags: ['database', 'adr'],
    tagsText: 'database adr',
    weight: 0.75,
    prevWeight: 0.5,
    metadata: '{"votes":3}',
    createdAt: '2099-01-01T00:00:00.000Z',
    updatedAt: '2099-01-01T00:00:01.000Z',
  };

  it('maps a Node to the record SQLite returns, leaving storage-only properties out', () => {
    expect(toMemory(node(['Memory'], full))).toEqual({
      id: 'm1',
      key: 'postgres-choice',
      title: 'Postgres',
      content: 'Chosen.',
      kind: 'decision',
      tags: ['database', 'adr'],
      weight: 0.75,
      metadata: { votes: 3 },
      createdAt: '2099-01-01T00:00:00.000Z',
      updatedAt: '2099-01-01T00:00:01.000Z',
    });
  });

  it('maps absent optional properties (Neo4j stores no nulls) to null, and absent tags to []', () => {
    const memory = toMemory(node(['Memory'], { id: 'm2', title: 'T', weight: int(1), createdAt: 'c', updatedAt: 'u' }));
    expect(memory).toEqual({
      id: 'm2',
      key: null,
      title: 'T',
      content: null,
      kind: null,
      tags: [],
      weight: 1,
      metadata: null,
      createdAt: 'c',
      updatedAt: 'u',
    });
  });

  it('maps DateTime timestamps written by other tools', () => {
    const memory = toMemory(node(['Memory'], { ...full, createdAt: new DateTime(2099, 1, 1, 0, 0, 0, 0, 0) }));
    expect(memory.createdAt).toBe('2099-01-01T00:00:00.000Z');
  });

  it('accepts a plain property map (what properties(n) returns)', () => {
    expect(toMemory(full).id).toBe('m1');
  });

  it('refuses a node whose title is missing', () => {
    expect(() => toMemory(node(['Memory'], { id: 'm3', weight: 0.5, createdAt: 'c', updatedAt: 'u' }))).toThrow(
      /memory\.title/,
    );
  });
});

describe('toEdge', () => {
  const properties = {
    id: 'e1',
    weight: 0.4,
    prevWeight: 0.5,
    metadata: '{"page":12}',
    createdAt: '2099-01-01T00:00:00.000Z',
    updatedAt: '2099-01-01T00:00:02.000Z',
  };

  it('maps a Relationship, taking the type from the relationship and the endpoints from the statement', () => {
    expect(toEdge(rel('CAUSED_BY', properties), 'a', 'b')).toEqual({
      id: 'e1',
      fromId: 'a',
      toId: 'b',
      type: 'CAUSED_BY',
      weight: 0.4,
      metadata: { page: 12 },
      createdAt: '2099-01-01T00:00:00.000Z',
      updatedAt: '2099-01-01T00:00:02.000Z',
      lastConfirmedAt: null,
    });
  });

  it('maps lastConfirmedAt when present, as a string or a DateTime', () => {
    expect(
      toEdge(rel('CITES', { ...properties, lastConfirmedAt: '2099-01-01T00:00:03.000Z' }), 'a', 'b').lastConfirmedAt,
    ).toBe('2099-01-01T00:00:03.000Z');
    const confirmed = new DateTime(2099, 1, 1, 0, 0, 3, 0, 0);
    expect(toEdge(rel('CITES', { ...properties, lastConfirmedAt: confirmed }), 'a', 'b').lastConfirmedAt).toBe(
      '2099-01-01T00:00:03.000Z',
    );
  });

  it('maps the property map of a deleted relationship with the type the statement returned', () => {
    expect(toEdge(properties, 'a', 'b', 'EXTENDS')).toMatchObject({ id: 'e1', type: 'EXTENDS', weight: 0.4 });
  });

  it('reads an Integer weight (an edge written by another tool) as a number', () => {
    expect(toEdge(rel('CITES', { ...properties, weight: int(1) }), 'a', 'b').weight).toBe(1);
  });

  it('refuses an edge without endpoints', () => {
    expect(() => toEdge(rel('CITES', properties), null, 'b')).toThrow(/edge\.fromId/);
  });
});

describe('toWeightEvent', () => {
  it('maps an event node, with absent edgeId/memoryId/reason/revertedBy as null', () => {
    const event = node(['WeightEvent'], {
      workspace: 'ws',
      id: 'ev1',
      at: '2099-01-01T00:00:01.000Z',
      source: 'AGENT',
      memoryId: 'm1',
      oldWeight: 0.5,
      newWeight: 0.49999,
      delta: -0.00001,
    });
    expect(toWeightEvent(event)).toEqual({
      id: 'ev1',
      at: '2099-01-01T00:00:01.000Z',
      source: 'AGENT',
      edgeId: null,
      memoryId: 'm1',
      old: 0.5,
      new: 0.49999,
      delta: -0.00001,
      reason: null,
      revertedBy: null,
    });
  });

  it('refuses an unknown source', () => {
    const event = node(['WeightEvent'], { id: 'ev2', at: 'a', source: 'ROBOT', oldWeight: 0, newWeight: 0, delta: 0 });
    expect(() => toWeightEvent(event)).toThrow(/event\.source/);
  });
});
