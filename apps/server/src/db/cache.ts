import type { Change, ChangeFeed } from './changes.js';

/** A row a cached value was read from: `<table>:<id>`, as the change feed names it. */
export type Tag = `${string}:${string | number}`;

interface Entry<V> {
  value: V;
  tags: Tag[];
  expires: number;
}

/**
 * Values read from the database, kept in memory for at most `ttlMs` and dropped the moment a
 * change to any row they were read from is announced (on any server; see ChangeFeed). While
 * the feed is not live nothing is answered from memory.
 *
 * A value read while a change arrived is not kept (it may predate the change): take `mark()`
 * before reading and hand it to `set`.
 */
export class ChangeCache<V> {
  private entries = new Map<string, Entry<V>>();
  private byTag = new Map<Tag, Set<string>>();
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly options: { ttlMs: number; maxEntries: number },
  ) {
    this.unsubscribe = feed.subscribe((change) => this.forget(change));
  }

  mark(): number {
    return this.generation;
  }

  get(key: string): V | undefined {
    if (!this.feed.live) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= performance.now()) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, tags: Tag[], mark: number): void {
    if (!this.feed.live || mark !== this.generation) return;
    this.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      // The oldest entry goes first (Maps iterate in insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.entries.set(key, { value, tags, expires: performance.now() + this.options.ttlMs });
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (keys) keys.add(key);
      else this.byTag.set(tag, new Set([key]));
    }
  }

  /** Stops following the feed (the cache is no longer used). */
  close(): void {
    this.unsubscribe();
    this.entries.clear();
    this.byTag.clear();
  }

  private forget(change: Change): void {
    this.generation++;
    if (!change) {
      this.entries.clear();
      this.byTag.clear();
      return;
    }
    const keys = this.byTag.get(`${change.table}:${change.id}`);
    if (keys) for (const key of keys) this.delete(key);
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
