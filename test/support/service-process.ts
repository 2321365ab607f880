import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startScriptNodeFlags } from '../../scripts/start-script.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServiceProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Lines the service logged so far (JSON log lines and anything else). */
  output: string[];
  /** SIGTERM and wait for a clean exit (returns the exit code). */
  stop(): Promise<number | null>;
  /** SIGKILL: the process dies at once, with no clean-up. */
  kill(): Promise<void>;
}

/** The parent's environment without what Vite/vitest add to it (BASE_URL='/' would be read as ours). */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of ['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'TEST']) delete env[key];
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];
  return env;
}

/** `undefined` in the given environment means "not set", e.g. `DATABASE_URL: undefined` for the embedded database. */
function withoutUndefined(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined)) as NodeJS.ProcessEnv;
}

/**
 * What a test service need not wait for, unless its test says otherwise: the 1 s drain at every stop
 * (graceful-shutdown.test.ts tests it), argon2id at production cost for every sign-up.
 */
const TEST_SERVICE_ENV = { PORT: '0', LOG_LEVEL: 'info', SHUTDOWN_DRAIN_MS: '0', PASSWORD_HASH_COST: 'test' };

/** Where this run's build goes: named by test/support/global-setup.ts, which removes it after the run. */
function runBuildDir(): string {
  const dir = process.env.LP_SERVICE_BUILD_DIR;
  if (!dir) throw new Error('LP_SERVICE_BUILD_DIR is unset: test/support/global-setup.ts names the service build of the run');
  return dir;
}

function runBuild(outdir: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts'), '--outdir', outdir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => resolve(String(error)));
    child.once('exit', (code) => resolve(code === 0 ? null : `scripts/build.ts exited with ${code}:\n${output}`));
  });
}

let built: Promise<string> | undefined;

/**
 * The service as `npm start` runs it (scripts/build.ts, esbuild, ~1 s), built once per test run by the
 * first test file that starts one: it takes a lock file, builds, and writes the outcome beside the
 * build; the other files' processes wait for that outcome. Returns the built `main.js`.
 */
export function builtService(): Promise<string> {
  built ??= (async () => {
    const dir = runBuildDir();
    const outcome = `${dir}.outcome`;
    try {
      await mkdir(dirname(dir), { recursive: true });
      await (await open(`${dir}.lock`, 'wx')).close();
      await writeFile(outcome, (await runBuild(dir)) ?? 'built');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const giveUpAt = Date.now() + 120_000;
    for (;;) {
      const text = await readFile(outcome, 'utf8').catch(() => null);
      if (text === 'built') return join(dir, 'src', 'app', 'main.js');
      if (text !== null) throw new Error(`the service build failed: ${text}`);
      if (Date.now() > giveUpAt) throw new Error(`no service build in ${dir} after 120 s`);
      // Another test process is building (about a second).
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return built;
}

/**
 * Runs the built service as its own process (what `npm start` runs, see builtService), for tests that
 * need a separate process: a crash/restart, environment read at start (NODE_EXTRA_CA_CERTS), signals.
 * Resolves once it listens.
 */
export async function startServiceProcess(env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...(await startScriptNodeFlags()), await builtService()], {
    cwd: root,
    env: withoutUndefined({ ...inheritedEnv(), ...TEST_SERVICE_ENV, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in ${timeoutMs} ms:\n${output.join('\n')}`)), timeoutMs);
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        const match = /listening on (http:\/\/[^\s"]+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    child,
    output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
