import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import type { EdgeRecord, MemoryRecord } from '../domain/types.js';
import { builder } from './builder.js';
import type { EngramContext } from './context.js';
import { EdgeRef, MemoryRef } from './refs.js';

/*
 * Keyset pages over the whole workspace (API.md, "Pages"): memories and edges in id order. Ids are
 * time-ordered, so the order is creation order, and a write between pages only adds at the end
 * (a new id) or removes an item, never shifts one across the cursor.
 */

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

interface Page<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: PageInfo;
}

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

function connectionTypes<T>(name: string, plural: string, node: typeof MemoryRef | typeof EdgeRef) {
  const edgeRef = builder.objectRef<{ cursor: string; node: T }>(`${name}Edge`);
  edgeRef.implement({
    description: `One ${name.toLowerCase()} of a page, with its position.`,
    fields: (t) => ({
      cursor: t.exposeString('cursor', { description: 'Opaque position of this item: pages continue after it.' }),
      node: t.field({
        type: node as never,
        description: `The ${name.toLowerCase()}.`,
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

const MemoryConnectionRef = connectionTypes<MemoryRecord>('Memory', 'memories', MemoryRef);
const EdgeConnectionRef = connectionTypes<EdgeRecord>('Edge', 'edges', EdgeRef);

const first = z.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100');

/** One page read by id: `first + 1` rows tell whether another page follows without a count. */
async function idPage<T extends { id: string }>(
  ctx: EngramContext,
  field: string,
  args: { first: number; after?: string | null | undefined },
  list: (page: { afterId: string | null; limit: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const scope = { field, workspace: ctx.workspace, args: {} };
  const afterId = args.after == null ? null : String(decodeCursor(scope, args.after)[0]);
  const rows = await list({ afterId, limit: args.first + 1 });
  const items = rows.slice(0, args.first);
  const edges = items.map((node) => ({ cursor: encodeCursor(scope, [node.id]), node }));
  return { edges, pageInfo: { hasNextPage: rows.length > args.first, endCursor: edges.at(-1)?.cursor ?? null } };
}

builder.queryFields((t) => ({
  memoriesConnection: t.field({
    type: MemoryConnectionRef,
    description:
      'Every memory of the workspace, a page at a time, in id order (creation order for generated ids). Writes between pages never skip or repeat a memory that existed before and after them.',
    args: {
      first: t.arg.int({ defaultValue: 20, required: true, validate: first, description: 'Page size, 1..100.' }),
      after: t.arg.string({ required: false, description: "The previous page's endCursor." }),
    },
    resolve: async (_root, args, ctx) => {
      const page = await idPage(ctx, 'Query.memoriesConnection', args, (p) => ctx.store.listMemories(ctx.workspace, p));
      for (const { node } of page.edges) ctx.loaders.memory.prime(node.id, node);
      return page;
    },
  }),
  edgesConnection: t.field({
    type: EdgeConnectionRef,
    description:
      'Every edge of the workspace (pruned ones too: check `pruned`), a page at a time, in id order (creation order). Writes between pages never skip or repeat an edge that existed before and after them.',
    args: {
      first: t.arg.int({ defaultValue: 20, required: true, validate: first, description: 'Page size, 1..100.' }),
      after: t.arg.string({ required: false, description: "The previous page's endCursor." }),
    },
    resolve: async (_root, args, ctx) => {
      const page = await idPage(ctx, 'Query.edgesConnection', args, (p) => ctx.store.listEdges(ctx.workspace, p));
      for (const { node } of page.edges) ctx.loaders.edge.prime(node.id, node);
      return page;
    },
  }),
}));
