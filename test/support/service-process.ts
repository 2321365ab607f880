import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

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
 * Runs the service as its own process, from its sources (`node --import tsx src/app/main.ts`) or from a
 * build (`entry` = a built `main.js`, what `npm start` runs), for tests that need a separate process: a
 * crash/restart, environment read at start (NODE_EXTRA_CA_CERTS), signals. Resolves once it listens.
 */
export async function startServiceProcess(
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
  entry = join(root, 'src', 'app', 'main.ts'),
): Promise<ServiceProcess> {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, entry], {
    cwd: root,
    env: withoutUndefined({ ...inheritedEnv(), PORT: '0', LOG_LEVEL: 'info', ...env }),
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
