/**
 * Values by key, least recently used first, each with its size in bytes (an estimate its owner
 * gives). Past `maxBytes` in all the least recently used are dropped, and so is any value not used
 * for `idleMs` (checked at most once a second, on use). The adjacency index keeps one workspace
 * index per key here, so memory follows what is used, not how many workspaces exist.
 */
export class LruByBytes<V> {
  private readonly entries = new Map<string, { value: V; bytes: number; usedAt: number }>();
  private total = 0;
  private sweptAt = 0;

  constructor(
    private readonly limits: { maxBytes: number; idleMs: number },
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The value, marked as just used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    this.entries.delete(key);
    entry.usedAt = now;
    this.entries.set(key, entry);
    this.sweepIdle(now);
    return entry.value;
  }

  /** The value, without marking it used (statistics). */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Stores (or replaces) a value as the most recently used, then drops the least recently used
   * until the total fits. False, and nothing stored, when the value alone is over the limit.
   */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (bytes > this.limits.maxBytes) return false;
    const now = this.now();
    this.entries.set(key, { value, bytes, usedAt: now });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.limits.maxBytes || oldest === key) break;
      this.drop(oldest, entry.bytes);
    }
    this.sweepIdle(now);
    return true;
  }

  delete(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.drop(key, entry.bytes);
    return entry.value;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the sizes of the values held. */
  get bytes(): number {
    return this.total;
  }

  get maxBytes(): number {
    return this.limits.maxBytes;
  }

  private drop(key: string, bytes: number): void {
    this.entries.delete(key);
    this.total -= bytes;
  }

  /** Drops values unused for idleMs: the oldest come first, so this stops at the first one in use. */
  private sweepIdle(now: number): void {
    if (now - this.sweptAt < Math.min(1000, this.limits.idleMs)) return;
    this.sweptAt = now;
    for (const [key, entry] of this.entries) {
      if (now - entry.usedAt < this.limits.idleMs) break;
      this.drop(key, entry.bytes);
    }
  }
}
