import { Agent, request as httpRequest } from 'node:http';
import type { LoadSettings } from './load.js';
import { readCpuSeconds, sampleRss } from './memory.js';
import { MIXED_OPERATIONS, type MixedOperation, type MixedUser } from './mixed-operations.js';
import { round } from './report.js';

/*
 * The `mixed` load (issue 18), shared by the `mixed` and `scale-out` scenarios: closed-loop clients, each
 * request for a random user and an operation drawn by weight, timed by the harness's own clock.
 */

/** A proxy in front of several instances names the one that answered in this header (bench/lib/proxy.ts). */
export const SERVED_BY_HEADER = 'x-served-by';

interface OpStats {
  latencies: number[];
  failed: number;
}

interface DriveResult {
  answered: number;
  stats: Map<string, OpStats>;
  /** Answers per `x-served-by` value (empty without a proxy). */
  servedBy: Map<string, number>;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `connections` clients, each sending one request after the other: a random user, an operation drawn by weight. */
async function drive(baseUrl: string, users: MixedUser[], connections: number, seconds: number): Promise<DriveResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(baseUrl);
  const total = MIXED_OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  const pick = (): MixedOperation => {
    let r = Math.random() * total;
    for (const op of MIXED_OPERATIONS) if ((r -= op.weight) < 0) return op;
    return MIXED_OPERATIONS[0]!;
  };
  const stats = new Map<string, OpStats>(MIXED_OPERATIONS.map((op) => [op.name, { latencies: [], failed: 0 }]));
  const servedBy = new Map<string, number>();
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  let answered = 0;
  const send = (op: MixedOperation, user: MixedUser) =>
    new Promise<number>((resolve) => {
      const req = op.request(user, n++);
      const body = req.body === undefined ? undefined : JSON.stringify(req.body);
      const r = httpRequest(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.path,
          headers: { cookie: user.cookie, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
        },
        (res) => {
          const instance = res.headers[SERVED_BY_HEADER];
          if (typeof instance === 'string') servedBy.set(instance, (servedBy.get(instance) ?? 0) + 1);
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ok = res.statusCode! < 300 && !(req.path === '/graphql' && Buffer.concat(chunks).includes('"errors"'));
            resolve(ok ? res.statusCode! : 0);
          });
        },
      );
      r.on('error', () => resolve(0));
      r.end(body);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const op = pick();
        const user = users[Math.floor(Math.random() * users.length)]!;
        const started = performance.now();
        const status = await send(op, user);
        answered++;
        const s = stats.get(op.name)!;
        if (status) s.latencies.push(performance.now() - started);
        else s.failed++;
      }
    }),
  );
  agent.destroy();
  return { answered, stats, servedBy };
}

export interface OperationFigures {
  name: string;
  kind: MixedOperation['kind'];
  surface: MixedOperation['surface'];
  share: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
}

export interface ProcessUse {
  pid: number;
  /** CPU seconds (user + system) over the measured window; NaN where /proc is missing. */
  cpuS: number;
  peakRssBytes: number;
}

export interface MixedMeasurement {
  answered: number;
  elapsedS: number;
  rps: number;
  /** Over every successful request of the window. */
  p99Ms: number;
  failed: number;
  operations: OperationFigures[];
  servedBy: Record<string, number>;
  /** One per pid handed in, in that order. */
  processes: ProcessUse[];
}

/** Load that is thrown away: JIT, pools and caches of an instance that has not served yet. */
export async function warmUpMixed(baseUrl: string, users: MixedUser[], load: LoadSettings): Promise<void> {
  await drive(baseUrl, users, load.connections, load.warmupS);
}

/** Warm-up (thrown away), then the measured window with the CPU and RSS of `pids` (the serving processes). */
export async function measureMixed(baseUrl: string, users: MixedUser[], load: LoadSettings, pids: number[]): Promise<MixedMeasurement> {
  await warmUpMixed(baseUrl, users, load);
  const samplers = pids.map((pid) => sampleRss(pid));
  const cpuBefore = pids.map((pid) => readCpuSeconds(pid));
  const started = performance.now();
  const { answered, stats, servedBy } = await drive(baseUrl, users, load.connections, load.durationS);
  const elapsedS = (performance.now() - started) / 1000;
  const processes = pids.map((pid, i) => {
    const after = readCpuSeconds(pid);
    const before = cpuBefore[i];
    return { pid, cpuS: after !== null && before != null ? after - before : NaN, peakRssBytes: samplers[i]!.stop().peak };
  });
  const weightTotal = MIXED_OPERATIONS.reduce((sum, op) => sum + op.weight, 0);
  const operations = MIXED_OPERATIONS.map((op) => {
    const s = stats.get(op.name)!;
    const sorted = [...s.latencies].sort((a, b) => a - b);
    return {
      name: op.name,
      kind: op.kind,
      surface: op.surface,
      share: round((100 * op.weight) / weightTotal, 0),
      requests: sorted.length,
      rps: round(sorted.length / elapsedS, 1),
      p50Ms: round(percentile(sorted, 50), 1),
      p99Ms: round(percentile(sorted, 99), 1),
      failed: s.failed,
    };
  });
  const all = [...stats.values()].flatMap((s) => s.latencies).sort((a, b) => a - b);
  return {
    answered,
    elapsedS,
    rps: answered / elapsedS,
    p99Ms: round(percentile(all, 99), 1),
    failed: operations.reduce((sum, op) => sum + op.failed, 0),
    operations,
    servedBy: Object.fromEntries(servedBy),
    processes,
  };
}
