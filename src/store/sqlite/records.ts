import type {
  AdjacentEdge,
  AdjustmentSource,
  EdgeRecord,
  Json,
  MemoryRecord,
  WeightEventRecord,
} from '../../domain/types.js';

export const MEMORY_COLUMNS = 'id, key, title, content, kind, tags, weight, metadata, created_at, updated_at';
export const EDGE_COLUMNS = 'id, from_id, to_id, type, weight, metadata, created_at, updated_at, last_confirmed_at';

export interface MemoryRow {
  id: string;
  key: string | null;
  title: string;
  content: string | null;
  kind: string | null;
  tags: string;
  weight: number;
  metadata: string | null;
  created_at: string;
  updated_at: string;
}

export interface EdgeRow {
  id: string;
  from_id: string;
  to_id: string;
  type: string;
  weight: number;
  metadata: string | null;
  created_at: string;
  updated_at: string;
  last_confirmed_at: string | null;
}

export interface WeightEventRow {
  id: string;
  at: string;
  source: string;
  edge_id: string | null;
  memory_id: string | null;
  old: number;
  new: number;
  delta: number;
  reason: string | null;
  reverted_by: string | null;
}

const parseJson = (text: string | null): Json | null => (text === null ? null : (JSON.parse(text) as Json));

export const toMemory = (row: MemoryRow): MemoryRecord => ({
  id: row.id,
  key: row.key,
  title: row.title,
  content: row.content,
  kind: row.kind,
  tags: JSON.parse(row.tags) as string[],
  weight: row.weight,
  metadata: parseJson(row.metadata),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const toEdge = (row: EdgeRow): EdgeRecord => ({
  id: row.id,
  fromId: row.from_id,
  toId: row.to_id,
  type: row.type,
  weight: row.weight,
  metadata: parseJson(row.metadata),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  lastConfirmedAt: row.last_confirmed_at,
});

export const toWeightEvent = (row: WeightEventRow): WeightEventRecord => ({
  id: row.id,
  at: row.at,
  source: row.source as AdjustmentSource,
  edgeId: row.edge_id,
  memoryId: row.memory_id,
  old: row.old,
  new: row.new,
  delta: row.delta,
  reason: row.reason,
  revertedBy: row.reverted_by,
});

/** One raw row of edge columns then memory columns (EDGE_COLUMNS, MEMORY_COLUMNS) as an adjacency entry. */
export function adjacentFromRow(row: unknown[]): AdjacentEdge {
  const [id, fromId, toId, type, weight, metadata, createdAt, updatedAt, lastConfirmedAt, ...memory] = row;
  return {
    direction: 'OUTGOING',
    edge: toEdge({
      id: id as string,
      from_id: fromId as string,
      to_id: toId as string,
      type: type as string,
      weight: weight as number,
      metadata: metadata as string | null,
      created_at: createdAt as string,
      updated_at: updatedAt as string,
      last_confirmed_at: lastConfirmedAt as string | null,
    }),
    neighbor: toMemory({
      id: memory[0] as string,
      key: memory[1] as string | null,
      title: memory[2] as string,
      content: memory[3] as string | null,
      kind: memory[4] as string | null,
      tags: memory[5] as string,
      weight: memory[6] as number,
      metadata: memory[7] as string | null,
      created_at: memory[8] as string,
      updated_at: memory[9] as string,
    }),
  };
}

/** JSON columns: metadata is stored as text, SQL NULL for none. */
export const encodeJson = (value: Json | null): string | null => (value === null ? null : JSON.stringify(value));
export const decodeJson = (text: string | null): Json | null => (text === null ? null : (JSON.parse(text) as Json));
