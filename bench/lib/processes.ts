import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/core/database/embedded-postgres.js';

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export { startScriptNodeFlags } from '../../scripts/start-script.js';

export interface BenchProcess {
  name: string;
  url: string;
  /** The pid of the Node process that serves (not a wrapper), so its memory can be read. */
  pid: number;
  child: ChildProcess;
  output: string[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

export interface StartOptions {
  name: string;
  /** Script path relative to the project root: a `.ts` one runs as `node --import tsx <script>`, a `.js` one as is. */
  script: string;
  env: Record<string, string>;
  /** Polled until it answers 200 (the process logs may be silenced with LOG_LEVEL=warn). */
  readyPath?: string;
  /** Extra Node flags (for example `--cpu-prof`). */
  nodeArgs?: string[];
  timeoutMs?: number;
}

/**
 * Starts an entry point as its own Node process on a free port (a TypeScript one with `node --import
 * tsx`, which is what `tsx <file>` does minus the wrapper process, so `pid` is the server itself) and
 * resolves once `readyPath` answers 200.
 */
export async function startProcess(options: StartOptions): Promise<BenchProcess> {
  const { name, script, env, readyPath = '/healthz', nodeArgs = [], timeoutMs = 60_000 } = options;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, join(projectRoot, script)], {
    cwd: projectRoot,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  // BENCH_LOG_DIR=<dir> keeps each process's whole output in <dir>/<name>-<pid>.log (for example with
  // NODE_OPTIONS=--trace-gc), beside the first 2,000 lines kept in memory.
  const logDir = process.env.BENCH_LOG_DIR;
  const log = logDir ? createWriteStream(join(logDir, `${name}-${child.pid}.log`)) : undefined;
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (output.length < 2000) output.push(line);
      log?.write(line + '\n');
    });
  }
  child.once('exit', () => log?.end());
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`${name} exited with ${exitCode} before it was ready:\n${output.join('\n')}`);
    const ready = await fetch(url + readyPath).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready in ${timeoutMs} ms:\n${output.join('\n')}`);
    }
    await sleep(100);
  }
  return {
    name,
    url,
    pid: child.pid!,
    child,
    output,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
