import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import type { EdgeRecord, MemoryRecord } from '../domain/types.js';
import { pageArgs } from './args.js';
import { builder } from './builder.js';
import type { EngramContext } from './context.js';
import { EdgeRef, MemoryRef } from './refs.js';

/*
 * Keyset pages (API.md, "Pages"). Every `<list>Connection` field reads `first + 1` items after the
 * position its cursor holds, in the list's own order: the extra item says whether another page
 * follows without a count. A cursor holds the sort key of its item, so a write between pages moves
 * nothing across it: an item that existed before and after the write, unchanged, keeps its key.
 */

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface Page<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: PageInfo;
}

/** A position in a list's order: the sort key of an item, most significant first. */
export type Position = readonly (string | number)[];

const PageInfoRef = builder.objectRef<PageInfo>('PageInfo');
PageInfoRef.implement({
  description: 'Where a page ends, and whether another follows.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'True when more items follow this page.' }),
    endCursor: t.exposeString('endCursor', {
      nullable: true,
      description: 'Pass as `after` for the next page; null on an empty page.',
    }),
  }),
});

/**
 * `<name>Edge { cursor node }` and `<name>Connection { edges pageInfo }` for items of `node`'s type.
 * Call once per name, at module load.
 */
export function connectionTypes<T>(name: string, plural: string, node: unknown) {
  const edgeRef = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`);
  edgeRef.implement({
    description: `One item of a page of ${plural}, with its position.`,
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: 'Opaque position of this item: pages continue after it.' }),
      node: t.field({
        type: node as never,
        description: 'The item.',
        resolve: (edge) => edge.node as never,
      }),
    }),
  });
  const connectionRef = builder.objectRef<Page<T>>(`${name}Connection`);
  connectionRef.implement({
    description: `A page of ${plural}.`,
    fields: (t) => ({
      edges: t.field({
        type: [edgeRef],
        description: 'The items of this page, in order.',
        resolve: (page) => page.edges,
      }),
      pageInfo: t.field({
        type: PageInfoRef,
        description: 'How to ask for the next page.',
        resolve: (page) => page.pageInfo,
      }),
    }),
  });
  return connectionRef;
}

export interface PageArgs {
  first: number;
  after?: string | null | undefined;
}

/** How one connection field reads and places its items. */
export interface Keyset<T> {
  /** The field the cursors page, e.g. `Memory.neighborsConnection`. */
  field: string;
  /**
   * What shapes the list besides first/after (filters, the parent's id): a cursor is refused by
   * any other. Give values normalised as the read uses them, so equal lists share cursors.
   */
  scope: Record<string, unknown>;
  /**
   * At most `limit` items strictly after `after` in the list's order (the start when null). A
   * read that stops at a bound of its own before `limit` (a listing's scan bound) also says where
   * it stopped: `resumeAfter`, the position the next page starts after.
   */
  read: (after: Position | null, limit: number) => Promise<T[] | { items: T[]; resumeAfter: Position | null }>;
  /** The sort key of an item, as `read` takes it back. */
  positionOf: (item: T) => Position;
}

/** One page of a keyset-ordered list: decodes `after`, reads `first + 1`, encodes each item's position. */
export async function keysetPage<T>(ctx: EngramContext, args: PageArgs, keyset: Keyset<T>): Promise<Page<T>> {
  const scope = { field: keyset.field, workspace: ctx.workspace, args: keyset.scope };
  const after = args.after == null ? null : decodeCursor(scope, args.after);
  const answer = await keyset.read(after, args.first + 1);
  const { items: rows, resumeAfter } = Array.isArray(answer) ? { items: answer, resumeAfter: null } : answer;
  const items = rows.slice(0, args.first);
  const edges = items.map((node) => ({ cursor: encodeCursor(scope, keyset.positionOf(node)), node }));
  // A read cut short by its bound is not the end: the next page goes on from where it stopped.
  if (rows.length <= args.first && resumeAfter !== null)
    return { edges, pageInfo: { hasNextPage: true, endCursor: encodeCursor(scope, resumeAfter) } };
  return { edges, pageInfo: { hasNextPage: rows.length > args.first, endCursor: edges.at(-1)?.cursor ?? null } };
}

export const MemoryConnectionRef = connectionTypes<MemoryRecord>('Memory', 'memories', MemoryRef);
const EdgeConnectionRef = connectionTypes<EdgeRecord>('Edge', 'edges', EdgeRef);

/** Memories and edges by id: ids are time-ordered, so a write only adds at the end or removes. */
const byId = <T extends { id: string }>(
  field: string,
  list: (p: { afterId: string | null; limit: number }) => Promise<T[]>,
): Keyset<T> => ({
  field,
  scope: {},
  read: (after, limit) => list({ afterId: after === null ? null : String(after[0]), limit }),
  positionOf: (item) => [item.id],
});

builder.queryFields((t) => ({
  memoriesConnection: t.field({
    type: MemoryConnectionRef,
    description:
      'Every memory of the workspace, a page at a time, in id order (creation order for generated ids). Writes between pages never skip or repeat a memory that existed before and after them.',
    args: pageArgs(t.arg, 20),
    resolve: async (_root, args, ctx) => {
      const page = await keysetPage(
        ctx,
        args,
        byId('Query.memoriesConnection', (p) => ctx.store.listMemories(ctx.workspace, p)),
      );
      for (const { node } of page.edges) ctx.loaders.memory.prime(node.id, node);
      return page;
    },
  }),
  edgesConnection: t.field({
    type: EdgeConnectionRef,
    description:
      'Every edge of the workspace (pruned ones too: check `pruned`), a page at a time, in id order (creation order). Writes between pages never skip or repeat an edge that existed before and after them.',
    args: pageArgs(t.arg, 20),
    resolve: async (_root, args, ctx) => {
      const page = await keysetPage(
        ctx,
        args,
        byId('Query.edgesConnection', (p) => ctx.store.listEdges(ctx.workspace, p)),
      );
      for (const { node } of page.edges) ctx.loaders.edge.prime(node.id, node);
      return page;
    },
  }),
}));
