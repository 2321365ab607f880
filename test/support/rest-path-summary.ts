import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionRoutes } from '../../rest/session-routes.js';
import { publicRoutes } from '../../rest/public-routes.js';
import type { PathComparison } from '../../rest/path-comparison.js';

/**
 * The run's record of the REST path comparison (rest-path-record.ts): a folder the test processes append
 * to, summed up after the run. It prints how many requests were compared over how many of the route
 * tables' routes, and the routes no test called; any difference fails the run (its test failed already).
 */
export default async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'lp-rest-paths-'));
  process.env.LP_REST_COMPARE_DIR = dir;

  return async () => {
    const comparisons: PathComparison[] = [];
    for (const file of await readdir(dir)) {
      for (const line of (await readFile(join(dir, file), 'utf8')).split('\n')) if (line) comparisons.push(JSON.parse(line) as PathComparison);
    }
    await rm(dir, { recursive: true, force: true });
    if (!comparisons.length) return;
    const table = [...Object.keys(sessionRoutes).map((o) => `session ${o}`), ...Object.keys(publicRoutes).map((o) => `public ${o}`)];
    const compared = new Set(comparisons.flatMap((c) => (c.operation ? [c.operation] : [])));
    const uncalled = table.filter((name) => !compared.has(name.slice(name.indexOf(' ') + 1)));
    const differing = comparisons.filter((c) => c.differences.length);
    console.log(
      `REST direct path vs Sofa path: ${comparisons.length} requests compared, ${compared.size} of ${table.length} routes reached an operation, ${differing.length} differed.` +
        // A partial run leaves most routes uncalled: the list is for a whole run.
        (uncalled.length && uncalled.length <= table.length / 4 ? `\nRoutes no test of this run called: ${uncalled.join(', ')}` : ''),
    );
    if (differing.length) {
      throw new Error(`REST paths differed on ${differing.length} requests: ${differing.slice(0, 5).map((c) => `${c.method} ${c.path}: ${c.differences.join('; ')}`).join(' | ')}`);
    }
  };
}
