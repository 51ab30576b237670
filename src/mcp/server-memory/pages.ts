import { createHash } from 'node:crypto';
import type { Entity, Relation } from '../../domain/server-memory.js';
import {
  type EntityFieldsFragment,
  ServerMemoryEntityPageDocument,
  ServerMemoryRelationPageDocument,
  type TypedDocumentString,
} from '../../generated/graphql.js';
import type { Execute } from '../execute.js';
import { asEntity, relationsOf, run, ToolFailure } from './graph-io.js';

/*
 * read_graph and search_nodes walk the workspace with the API's keyset pages (memoriesConnection,
 * then edgesConnection). Their own cursor wraps the API's: which list it is in and the API cursor
 * there, tied to the tool and its query, so a cursor from another call is refused; the API cursor
 * inside is tied to the workspace by the API itself.
 */

/** The API's page size limit. */
const PAGE = 100;

type Phase = 'entities' | 'relations';

interface Position {
  phase: Phase;
  after: string | null;
}

const bindingOf = (tool: string, query: string): string =>
  createHash('sha256')
    .update(JSON.stringify([tool, query]))
    .digest('base64url')
    .slice(0, 12);

export function encodePosition(tool: string, query: string, position: Position): string {
  return Buffer.from(JSON.stringify({ t: bindingOf(tool, query), ...position }), 'utf8').toString('base64url');
}

export function decodePosition(tool: string, query: string, cursor: string | undefined): Position {
  if (cursor === undefined || cursor === '') return { phase: 'entities', after: null };
  let value: { t?: unknown; phase?: unknown; after?: unknown } = {};
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // refused below
  }
  const valid =
    (value.phase === 'entities' || value.phase === 'relations') &&
    (value.after === null || typeof value.after === 'string');
  if (!valid || value.t !== bindingOf(tool, query))
    throw new ToolFailure([
      {
        code: 'BAD_USER_INPUT',
        message: `cursor: not a next_cursor of ${tool}${query === '' ? '' : ' for this query'}; call again without it to start over`,
        argument: 'cursor',
        retryable: false,
      },
    ]);
  return { phase: value.phase as Phase, after: value.after as string | null };
}

/** Runs a page read; the API's refusal of a foreign cursor names `after`, the tool's argument is `cursor`. */
async function page<TResult, TVariables>(
  execute: Execute,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  try {
    return await run(execute, document, variables);
  } catch (error) {
    if (!(error instanceof ToolFailure) || error.errors[0]?.argument !== 'after') throw error;
    throw new ToolFailure(
      error.errors.map((e) => ({ ...e, argument: 'cursor', message: e.message.replace(/^after:/, 'cursor:') })),
    );
  }
}

export interface Scan {
  entities: { memory: EntityFieldsFragment; entity: Entity }[];
  relations: Relation[];
  /** Where the next call starts; null when the walk is complete. */
  next: Position | null;
}

/**
 * Entities (those `keep` accepts) from `position` until `budget.entities` are kept or
 * `budget.scanned` are read, then, with `budget.relations` > 0, relations until that many.
 */
export async function scanGraph(
  execute: Execute,
  position: Position,
  budget: { entities: number; scanned: number; relations: number },
  keep: (entity: Entity) => boolean = () => true,
): Promise<Scan> {
  const scan: Scan = { entities: [], relations: [], next: null };
  let { phase, after } = position;
  let scanned = 0;
  while (phase === 'entities') {
    const data = await page(execute, ServerMemoryEntityPageDocument, { first: PAGE, after });
    const entities = data.memoriesConnection;
    for (const { cursor, node } of entities.edges) {
      scanned++;
      after = cursor;
      const entity = asEntity(node);
      if (keep(entity)) scan.entities.push({ memory: node, entity });
      if (scan.entities.length >= budget.entities || scanned >= budget.scanned) {
        const last = cursor === entities.edges.at(-1)?.cursor;
        if (last && !entities.pageInfo.hasNextPage) break;
        scan.next = { phase, after };
        return scan;
      }
    }
    if (!entities.pageInfo.hasNextPage) {
      if (budget.relations === 0) return scan;
      phase = 'relations';
      after = null;
    }
  }
  for (;;) {
    const data = await page(execute, ServerMemoryRelationPageDocument, { first: PAGE, after });
    const edges = data.edgesConnection;
    for (const { cursor, node } of edges.edges) {
      after = cursor;
      scan.relations.push(...relationsOf(node));
      if (
        scan.relations.length >= budget.relations &&
        (cursor !== edges.edges.at(-1)?.cursor || edges.pageInfo.hasNextPage)
      ) {
        scan.next = { phase, after };
        return scan;
      }
    }
    if (!edges.pageInfo.hasNextPage) return scan;
  }
}
