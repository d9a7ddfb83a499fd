import { databaseUnavailable } from '../lib/db-errors.js';

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(err: unknown): void;
}

/**
 * Calls that arrive while a statement runs wait for it and go together in the next one: `runAll`
 * runs its items in one statement and answers each one's result, in their order. A lone call goes
 * at once, so a quiet server answers as fast as with a statement per call; under load, statements
 * (and commits, and pooled connections held) stay about one per round trip instead of one per
 * call.
 *
 * When the shared statement fails for a reason other than the database being unreachable, one
 * item's data may be what the database refused: each item is then run alone, so only the calls
 * that fail by themselves are answered with their error. A round takes items up to `maxWeight`
 * (at least one), so that no statement grows without bound.
 */
export class StatementBatcher<Item, Result> {
  private waiting: Array<Waiting<Item, Result>> = [];
  private writing = false;

  constructor(
    private readonly runAll: (items: Item[]) => Promise<Result[]>,
    private readonly options: { weight?: (item: Item) => number; maxWeight?: number } = {},
  ) {}

  run(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) this.next();
    });
  }

  private next(): void {
    const batch = this.take();
    this.writing = true;
    this.settle(batch).finally(() => {
      this.writing = false;
      if (this.waiting.length > 0) this.next();
    });
  }

  private take(): Array<Waiting<Item, Result>> {
    const { weight, maxWeight = Number.POSITIVE_INFINITY } = this.options;
    let count = 0;
    let total = 0;
    for (const w of this.waiting) {
      const add = weight ? weight(w.item) : 1;
      if (count > 0 && total + add > maxWeight) break;
      total += add;
      count++;
    }
    return this.waiting.splice(0, count);
  }

  private async settle(batch: Array<Waiting<Item, Result>>): Promise<void> {
    try {
      const results = await this.runAll(batch.map((w) => w.item));
      batch.forEach((w, k) => {
        w.resolve(results[k] as Result);
      });
    } catch (err) {
      if (batch.length === 1 || databaseUnavailable(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      await Promise.all(
        batch.map((w) => this.runAll([w.item]).then(([result]) => w.resolve(result as Result), w.reject)),
      );
    }
  }
}
