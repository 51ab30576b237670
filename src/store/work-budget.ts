import { EngramError } from '../domain/errors.js';
import type { AdjacentEdge } from '../domain/types.js';
import { decorateStore } from './instrumented-store.js';
import type { AdjacencyQuery, FrontierExpansion, GraphStore } from './port.js';
import { memoriesWithAdjacent } from './shared/memories-with-adjacent.js';

/**
 * The store work one request may do: rows (memories, edges, weight events) read or written, across
 * every store call of the request. Services read `remaining()` to size what they ask for; the
 * budgeted store view (storeWithWorkBudget) charges what each call returned and refuses to go on
 * once the budget is spent.
 */
export interface WorkMeter {
  readonly limit: number;
  remaining(): number;
  /** Adds rows read; throws LIMIT_EXCEEDED once the total is over the limit (the rows are dropped). */
  charge(rows: number): void;
  /** Adds rows written: a write that was allowed to start is never failed after it committed. */
  record(rows: number): void;
  /** Adds edges a walk examined: ENGRAM_WALK_BUDGET bounds those, so they count in `done()`, not against this budget. */
  walked(steps: number): void;
  /** What the request did so far: rows read and written, and walk steps. Its actual cost. */
  done(): number;
}

export function createWorkMeter(limit: number): WorkMeter {
  let spent = 0;
  let steps = 0;
  return {
    limit,
    remaining: () => Math.max(0, limit - spent),
    charge(rows) {
      spent += rows;
      if (spent > limit) throw workBudgetExceeded(limit);
    },
    record(rows) {
      spent += rows;
    },
    walked(count) {
      steps += count;
    },
    done: () => spent + steps,
  };
}

const workBudgetExceeded = (limit: number) =>
  new EngramError(
    'LIMIT_EXCEEDED',
    `This request needs more than ${limit} rows of store work (ENGRAM_WORK_BUDGET) and was stopped; ask for less: a smaller limit, budget or maxDepth, fewer ids or aliases, or narrow it with types or minWeight.`,
    { extensions: { reason: 'WORK_BUDGET', workBudget: limit } },
  );

const WRITES = new Set<PropertyKey>([
  'createMemory',
  'updateMemory',
  'deleteMemory',
  'linkEdge',
  'unlinkEdges',
  'applyWeightChanges',
  'importBatch',
]);

/** Rows in an answer: entries of a list (or of a list of lists), non-null slots, or one record. */
function rowsIn(result: unknown): number {
  if (Array.isArray(result)) {
    let rows = 0;
    for (const item of result) rows += Array.isArray(item) ? item.length : item === null ? 0 : 1 + adjacentRows(item);
    return rows;
  }
  if (result === null || result === undefined) return 0;
  if (typeof result === 'object' && 'steps' in result) return 0;
  // listNewest: the page's memories.
  if (typeof result === 'object' && 'memories' in result && 'resumeAfter' in result)
    return (result as { memories: unknown[] }).memories.length;
  // associationCandidates: what it read is its sources' terms and the candidates it listed.
  if (typeof result === 'object' && 'candidates' in result && 'sources' in result) {
    const answer = result as { sources: { terms: unknown[] }[]; candidates: unknown[] };
    return answer.candidates.length + answer.sources.reduce((sum, source) => sum + source.terms.length, 0);
  }
  return 1;
}

/** The edges a getMemoriesWithAdjacent entry carries beside its memory (0 for any other item). */
const adjacentRows = (item: unknown): number =>
  typeof item === 'object' && item !== null && 'adjacent' in item && Array.isArray(item.adjacent)
    ? item.adjacent.length
    : 0;

const nextTurn = () => new Promise<void>((resume) => setImmediate(resume));

/**
 * A request that has held the event loop this long lets it turn before its next store call.
 * better-sqlite3 answers synchronously, so without this a whole request (every level of a walk,
 * every part of a read) would run in one go, and a client of another workspace would wait for all
 * of it; with it, the unit another request waits for is one store call and what runs around it.
 */
const SLICE_MS = 4;

/**
 * A per-request view of the store that keeps the request inside its work budget:
 * - a call is refused (LIMIT_EXCEEDED, nothing done) once the budget is spent, and a batch of
 *   weight changes or an import larger than what is left is refused before it writes;
 * - getAdjacent never returns more rows than the budget has left (`maxRows`), and a batch with
 *   more than `rowsPerCall` rows is read in several calls of at most that size, with the event
 *   loop turning between them, so one request's big read cannot hold better-sqlite3 (and with it
 *   every other request of the process) for long;
 * - what each call returned is charged, and the request stops as soon as it is over;
 * - a request that has run for SLICE_MS lets the event loop turn before its next call.
 * Walk steps (expandFrontier, shortestPath) carry ids, not rows; ENGRAM_WALK_BUDGET bounds them.
 */
export function storeWithWorkBudget(store: GraphStore, meter: WorkMeter, rowsPerCall: number): GraphStore {
  let sliceStarted = performance.now();
  const shareTheLoop = async () => {
    if (performance.now() - sliceStarted < SLICE_MS) return;
    await nextTurn();
    sliceStarted = performance.now();
  };
  /**
   * Reads in parts of at most `rowsPerCall` rows, turning the event loop between parts. A part
   * that comes back full was cut by its cap: the lists before its last non-empty one are whole,
   * that one is read again with the next part. A batch with few edges is still one call.
   */
  async function getAdjacent(ws: string, memoryIds: readonly string[], query: AdjacencyQuery) {
    const lists: AdjacentEdge[][] = memoryIds.map(() => []);
    let capLeft = query.maxRows ?? Number.POSITIVE_INFINITY;
    let at = 0;
    while (at < memoryIds.length && capLeft > 0) {
      await shareTheLoop();
      // One more row than the budget has left: an answer that fills it proves the budget too small.
      const finalCap = Math.min(capLeft, meter.remaining() + 1);
      const partCap = Math.min(finalCap, rowsPerCall);
      const ids = memoryIds.slice(at);
      const answer = await store.getAdjacent(ws, ids, { ...query, maxRows: partCap });
      const rows = rowsIn(answer);
      meter.charge(rows);
      let whole = answer.length;
      if (rows >= partCap && partCap < finalCap) {
        whole = answer.length - 1;
        while (whole > 0 && (answer[whole] as AdjacentEdge[]).length === 0) whole--;
        if (whole === 0) {
          // One memory has more edges than a part holds: it is read alone, bounded by its own limit and the budget.
          await shareTheLoop();
          const [own = []] = await store.getAdjacent(ws, [memoryIds[at] as string], { ...query, maxRows: finalCap });
          meter.charge(own.length);
          lists[at] = own;
          capLeft -= own.length;
          at += 1;
          continue;
        }
      }
      for (let k = 0; k < whole; k++) {
        const list = answer[k] as AdjacentEdge[];
        lists[at + k] = list;
        capLeft -= list.length;
      }
      at += whole;
    }
    return lists;
  }

  /**
   * One call when the answer cannot outgrow a part or what the budget has left (`memory(id) {
   * neighbors(limit: 20) }`); otherwise the memories, then their edges read in parts as above.
   */
  async function getMemoriesWithAdjacent(ws: string, refs: readonly string[], query: AdjacencyQuery) {
    const mostRows = refs.length * (query.limitPerMemory ?? Number.POSITIVE_INFINITY);
    if (mostRows <= Math.min(rowsPerCall, meter.remaining())) {
      const answer = await store.getMemoriesWithAdjacent(ws, refs, query);
      meter.charge(rowsIn(answer));
      return answer;
    }
    return memoriesWithAdjacent({ getMemories: guardedGetMemories, getAdjacent }, ws, refs, query);
  }

  async function guardedGetMemories(ws: string, refs: readonly string[]) {
    const answer = await store.getMemories(ws, refs);
    meter.charge(rowsIn(answer));
    return answer;
  }

  const guarded: Partial<Record<keyof GraphStore, (...args: never[]) => Promise<unknown>>> = {
    getAdjacent,
    getMemoriesWithAdjacent,
    async edgesAmong(ws: string, ids: readonly string[], query: { pruneThreshold: number; limit: number }) {
      const answer = await store.edgesAmong(ws, ids, { ...query, limit: Math.min(query.limit, meter.remaining() + 1) });
      meter.charge(answer.length);
      return answer;
    },
  };

  /** Rows a write will touch, known before it starts (at least one), so a write too big is refused before it begins. */
  const sizeOfWrite = (property: PropertyKey, args: unknown[]): number => {
    if (property === 'applyWeightChanges') return (args[1] as unknown[]).length;
    if (property === 'importBatch') {
      const batch = args[1] as { memories: unknown[]; edges: unknown[] };
      return batch.memories.length + batch.edges.length;
    }
    return WRITES.has(property) ? 1 : 0;
  };

  return decorateStore(
    store,
    (method, call) => {
      const special = guarded[method as keyof GraphStore];
      return async (...args) => {
        if (meter.remaining() <= 0) throw workBudgetExceeded(meter.limit);
        await shareTheLoop();
        const size = sizeOfWrite(method, args);
        if (size > meter.remaining()) throw workBudgetExceeded(meter.limit);
        if (special) return (special as (...a: unknown[]) => Promise<unknown>)(...args);
        const answer = await call(...args);
        if (method === 'expandFrontier') {
          const expansion = answer as FrontierExpansion;
          meter.walked(expansion.examined ?? expansion.steps.length);
        }
        if (size > 0) meter.record(Math.max(size, rowsIn(answer)));
        else meter.charge(rowsIn(answer));
        return answer;
      };
    },
    ['ping'],
  );
}
