import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PathComparison, RestPathCheck } from '../../rest/path-comparison.js';

/**
 * The test apps' comparison of the REST surfaces' two paths (rest/path-comparison.ts): every request a
 * test sends to /api/v1 or /api/public/v1 on the direct path is answered by it and checked against Sofa's
 * path (a difference answers 500, failing that test). Each comparison is also kept here, for a test to
 * read, and appended to this run's record (LP_REST_COMPARE_DIR, rest-path-summary.ts), which is summed up
 * after the run: the routes compared, and the table's routes no test called.
 */
export const restPathComparisons: PathComparison[] = [];

/** Kept in memory up to this many (a file reads its own; the record on disk has them all). */
const KEPT = 10_000;

export const restPathRecord: RestPathCheck = {
  record(comparison) {
    if (restPathComparisons.length >= KEPT) restPathComparisons.shift();
    restPathComparisons.push(comparison);
    const dir = process.env.LP_REST_COMPARE_DIR;
    if (!dir) return;
    const { operation, method, path, status, differences } = comparison;
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify({ operation, method, path, status, differences })}\n`);
  },
};
