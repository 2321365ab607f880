import { readCpuSeconds } from './memory.js';
import { round } from './report.js';

/**
 * CPU (user + system, every thread) a process spends per request of each kind, sent one at a time
 * `count` times in a row. With no concurrency the figure hardly depends on what else the machine does,
 * so it shows where the fixed costs of a request are (compare a kind with the `/healthz` floor).
 */
export async function cpuMsPerRequest(pid: number, kinds: [string, () => Promise<unknown>][], count = 100): Promise<Record<string, number>> {
  const perRequest: Record<string, number> = {};
  for (const [kind, request] of kinds) {
    for (let i = 0; i < 5; i++) await request(); // warm: the first calls compile and fill caches
    const before = readCpuSeconds(pid) ?? NaN;
    for (let i = 0; i < count; i++) await request();
    perRequest[kind] = round((((readCpuSeconds(pid) ?? NaN) - before) * 1000) / count, 2);
  }
  return perRequest;
}
