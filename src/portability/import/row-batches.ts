import type { CsvRow } from './csv.js';

/**
 * The file's rows read on demand, in batches: a chunk takes batch after batch until its time is up, so
 * it reads only what it writes. A batch ends where the applier may cut (a workout's rows stay
 * together); rows handed back (a chunk rolled back to be written again) come first.
 */
export class RowBatches {
  private readonly ahead: CsvRow[] = [];
  private ended = false;

  constructor(private readonly rows: AsyncIterator<CsvRow>) {}

  /** Reads until `count` rows are ahead or the file ends. */
  private async fill(count: number): Promise<void> {
    while (this.ahead.length < count && !this.ended) {
      const next = await this.rows.next();
      if (next.done) this.ended = true;
      else this.ahead.push(next.value);
    }
  }

  /** The next `count` rows as they come (fewer at the end): rows an earlier run committed. */
  async take(count: number): Promise<CsvRow[]> {
    await this.fill(count);
    return this.ahead.splice(0, count);
  }

  /** The next `size` rows (fewer at the end), and more until `canCut` allows a cut after the last. */
  async batch(size: number, canCut: (previous: CsvRow, next: CsvRow) => boolean): Promise<CsvRow[]> {
    await this.fill(size + 1);
    let end = Math.min(size, this.ahead.length);
    while (end > 0 && end < this.ahead.length && !canCut(this.ahead[end - 1]!, this.ahead[end]!)) {
      end += 1;
      await this.fill(end + 1);
    }
    return this.ahead.splice(0, end);
  }

  /** Rows taken by a chunk that rolled back: read again first. */
  unread(rows: CsvRow[]): void {
    this.ahead.unshift(...rows);
  }

  async exhausted(): Promise<boolean> {
    await this.fill(1);
    return this.ahead.length === 0;
  }

  async close(): Promise<void> {
    await this.rows.return?.(undefined);
  }
}
