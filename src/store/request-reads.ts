import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the store calls of one GraphQL request share while it executes: the Neo4j store keeps the
 * request's read transaction here, so every read of the request rides one transaction, and finds
 * the request's deadline, past which none of its transactions may commit. Entered
 * around execution by the usePooledReads plugin; a store call made outside a request (the embedding
 * back-fill, the CLI) finds none and stands alone. Each store keeps its own slot, keyed by itself.
 */
export class RequestReads {
  /** The request's deadline (use-deadline.ts); null outside a GraphQL request with one. */
  constructor(readonly deadline: AbortSignal | null = null) {}

  private readonly slots = new Map<object, { value: unknown; end: () => Promise<void> }>();

  get<T>(owner: object): T | undefined {
    return this.slots.get(owner)?.value as T | undefined;
  }

  set<T>(owner: object, value: T, end: () => Promise<void>): void {
    this.slots.set(owner, { value, end });
  }

  /** Drops one owner's slot without ending it (the owner ended it another way). */
  forget(owner: object): void {
    this.slots.delete(owner);
  }

  /** Ends one owner's slot (a write ends the shared reads before it); never rejects. */
  async endOf(owner: object): Promise<void> {
    const slot = this.slots.get(owner);
    if (!slot) return;
    this.slots.delete(owner);
    await slot.end().catch(() => undefined);
  }

  /** Ends every slot: the request is answered. Never rejects. */
  async end(): Promise<void> {
    await Promise.all([...this.slots.keys()].map((owner) => this.endOf(owner)));
  }
}

const current = new AsyncLocalStorage<RequestReads>();

/** The reads of the request executing here, if any. */
export const currentRequestReads = (): RequestReads | undefined => current.getStore();

/** Runs `work` (and everything it starts) as one request's execution. */
export const withRequestReads = <T>(reads: RequestReads, work: () => T): T => current.run(reads, work);

/** Runs `work` outside any request's reads: each store call then stands alone (the benchmark's A/B). */
export const outsideRequestReads = <T>(work: () => T): T => current.exit(work);
