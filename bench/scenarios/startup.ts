import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/core/database/embedded-postgres.js';
import { MB, readCpuSeconds, readMemory } from '../lib/memory.js';
import { projectRoot, startScriptNodeFlags } from '../lib/processes.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/** Targets of issue 18: `/readyz` ready within this long after the start, and this much RSS when idle. */
const TARGET_READY_MS = 2000;
const TARGET_IDLE_RSS_MB = 150;
/** Idle RSS is read this long after the service answered ready (start-up work, timers and GC settle). */
const IDLE_AFTER_MS = 5000;

interface StartRun {
  readyMs: number;
  cpuMsToReady: number;
  idleRssMb: number;
  idleCpuMs: number;
}

/** Starts `node <npm start flags> dist/src/app/main.js` and polls /readyz every 10 ms until it answers 200. */
async function startOnce(databaseUrl: string, nodeFlags: string[], env: Record<string, string>, root = projectRoot): Promise<StartRun> {
  const dataDir = await mkdtemp(join(tmpdir(), 'lp-bench-startup-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/readyz`;
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, join(root, 'dist/src/app/main.js')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'production', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let readyMs: number | undefined;
    while (readyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it was ready:\n${stderr}`);
      if (performance.now() - started > 300_000) throw new Error('the service was not ready in 300 s');
      const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
      if (ok) readyMs = performance.now() - started;
      else await sleep(10);
    }
    const cpuAtReady = readCpuSeconds(child.pid!) ?? NaN;
    await sleep(IDLE_AFTER_MS);
    const memory = readMemory(child.pid!);
    const cpuAfter = readCpuSeconds(child.pid!) ?? NaN;
    return {
      readyMs: round(readyMs, 0),
      cpuMsToReady: round(cpuAtReady * 1000, 0),
      idleRssMb: round((memory?.rss ?? NaN) / MB, 1),
      idleCpuMs: round((cpuAfter - cpuAtReady) * 1000, 0),
    };
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Node's own floor: `node -e 0` started and ended, the same way. */
async function bareNodeMs(): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' }).once('exit', () => resolve()).once('error', reject));
  return round(performance.now() - started, 0);
}

async function run(ctx: ScenarioContext) {
  // A migrated database: the starts measured are restarts, as in production (nothing left to migrate).
  const database = await ctx.database();
  const nodeFlags = await startScriptNodeFlags();
  const starts = Math.max(1, Number(process.env.BENCH_STARTS ?? 3));
  ctx.log(`${starts} starts of node ${nodeFlags.join(' ')} dist/src/app/main.js (external PostgreSQL), each until /readyz answers, then ${IDLE_AFTER_MS / 1000} s idle`);
  // BENCH_STARTUP_BASELINE=<dir>: another checkout of the project, built (`npm run build` there), started
  // in turn with this one on the same database, so the two compare under the same machine load.
  const baselineRoot = process.env.BENCH_STARTUP_BASELINE;
  const runs: StartRun[] = [];
  const baselineRuns: StartRun[] = [];
  const floors: number[] = [];
  // One unmeasured start first: it fills the OS file cache, as any restart of a running machine finds it.
  await startOnce(database.url, nodeFlags, {});
  if (baselineRoot) await startOnce(database.url, nodeFlags, {}, baselineRoot);
  for (let i = 0; i < starts; i++) {
    floors.push(await bareNodeMs());
    const result = await startOnce(database.url, nodeFlags, {});
    ctx.log(`start ${i + 1}: ready in ${result.readyMs} ms (${result.cpuMsToReady} ms CPU), idle RSS ${result.idleRssMb} MB; load average ${loadavg()[0]!.toFixed(1)}`);
    runs.push(result);
    if (baselineRoot) {
      const base = await startOnce(database.url, nodeFlags, {}, baselineRoot);
      ctx.log(`baseline start ${i + 1}: ready in ${base.readyMs} ms (${base.cpuMsToReady} ms CPU), idle RSS ${base.idleRssMb} MB; load average ${loadavg()[0]!.toFixed(1)}`);
      baselineRuns.push(base);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = {
    readyMsMedian: median(runs.map((r) => r.readyMs)),
    cpuMsToReadyMedian: median(runs.map((r) => r.cpuMsToReady)),
    idleRssMbMedian: median(runs.map((r) => r.idleRssMb)),
    bareNodeMsMedian: median(floors),
  };
  console.log('');
  printTable(
    ['start', 'ready ms', 'CPU ms to ready', `idle RSS (+${IDLE_AFTER_MS / 1000} s)`, 'CPU ms idle', 'node -e 0 ms'],
    [
      ...runs.map((r, i) => [`${i + 1}`, r.readyMs, r.cpuMsToReady, `${r.idleRssMb} MB`, r.idleCpuMs, floors[i]!]),
      ...baselineRuns.map((r, i) => [`baseline ${i + 1}`, r.readyMs, r.cpuMsToReady, `${r.idleRssMb} MB`, r.idleCpuMs, floors[i]!]),
    ],
  );
  if (baselineRuns.length) {
    const ratio = (a: number, b: number) => round(a / b, 2);
    console.log(
      `this / baseline (medians): ready ${ratio(summary.readyMsMedian, median(baselineRuns.map((r) => r.readyMs)))}, CPU to ready ${ratio(summary.cpuMsToReadyMedian, median(baselineRuns.map((r) => r.cpuMsToReady)))}, idle RSS ${ratio(summary.idleRssMbMedian, median(baselineRuns.map((r) => r.idleRssMb)))}`,
    );
  }
  const met = { ready: summary.readyMsMedian <= TARGET_READY_MS, idleRss: summary.idleRssMbMedian <= TARGET_IDLE_RSS_MB };
  console.log('');
  console.log(`median ready ${summary.readyMsMedian} ms (target <= ${TARGET_READY_MS}): ${met.ready ? 'met' : 'MISSED'}; CPU to ready ${summary.cpuMsToReadyMedian} ms`);
  console.log(`median idle RSS ${summary.idleRssMbMedian} MB (target <= ${TARGET_IDLE_RSS_MB}): ${met.idleRss ? 'met' : 'MISSED'}`);
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}: on a busy machine trust the CPU to ready over the wall time`);
  return {
    scenario: 'startup',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: (await import('node:os')).cpus().length, loadAverage: loadavg() },
    targets: { readyMs: TARGET_READY_MS, idleRssMb: TARGET_IDLE_RSS_MB, met },
    summary,
    runs,
    ...(baselineRuns.length ? { baseline: { root: baselineRoot, runs: baselineRuns } } : {}),
  };
}

const scenario: Scenario = {
  name: 'startup',
  description: 'time from starting the built service (npm start) to /readyz ready, and its idle RSS, with an external PostgreSQL',
  run,
};
export default scenario;
