import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchDatabase, BenchDatabaseServer } from './database.js';
import type { LoadSettings } from './load.js';
import { startProcess, startScriptNodeFlags, type BenchProcess } from './processes.js';
import { resultsDir } from './report.js';

/** What run.ts hands every scenario. */
export interface ScenarioContext {
  /** A fresh migrated database per call, dropped when the run ends. */
  database(label?: string): Promise<BenchDatabase>;
  load: LoadSettings;
  /** `--profile`: start the service with `--cpu-prof` (profiles land in bench/results/profiles/). */
  profile: boolean;
  log(line: string): void;
  /** Runs at the end of the scenario, last registered first, whether it succeeded or not. */
  defer(cleanup: () => Promise<unknown> | unknown): void;
  /**
   * The real service as its own process (`src/app/main.ts`) against `database`, with LOG_LEVEL=warn and rate
   * limits off, stopped (SIGTERM) when the scenario ends. `env` adds or overrides settings.
   */
  startService(database: BenchDatabase, env?: Record<string, string>): Promise<BenchService>;
}

export interface BenchService extends BenchProcess {
  /** The JWT secret the service signs sessions with (a baseline can verify the same cookies). */
  jwtSecret: string;
  dataDir: string;
}

/**
 * One benchmark. A scenario file default-exports one of these; run.ts lists it by name. `run` returns
 * the JSON written to bench/results/<name>.json and prints its own table.
 */
export interface Scenario {
  name: string;
  description: string;
  run(ctx: ScenarioContext): Promise<unknown>;
}

export function createScenarioContext(name: string, server: BenchDatabaseServer, load: LoadSettings, profile: boolean) {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const log = (line: string) => console.log(`[${name}] ${line}`);
  const ctx: ScenarioContext = {
    load,
    profile,
    log,
    defer: (cleanup) => void cleanups.push(cleanup),
    async database(label = name) {
      const database = await server.freshDatabase(label);
      cleanups.push(() => database.drop());
      return database;
    },
    async startService(database, env = {}) {
      const dataDir = await mkdtemp(join(tmpdir(), 'lp-bench-data-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const jwtSecret = randomBytes(48).toString('base64url');
      const service = await startProcess({
        name: 'service',
        // What `npm start` runs: the build of bench/run.ts's start (scripts/build.ts), with its Node flags.
        script: 'dist/src/app/main.js',
        readyPath: '/readyz',
        nodeArgs: [
          ...(await startScriptNodeFlags()),
          ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${join(resultsDir, 'profiles')}`] : []),
          // Extra Node flags for the service only, for diagnosis (for example `--trace-gc` with BENCH_LOG_DIR).
          ...(process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        ],
        env: {
          LOG_LEVEL: 'warn',
          DISABLE_RATE_LIMIT: 'true',
          NODE_ENV: 'production',
          DATABASE_URL: database.url,
          DATA_DIR: dataDir,
          JWT_SECRET: jwtSecret,
          ...env,
        },
      });
      cleanups.push(async () => {
        const code = await service.stop();
        if (code !== 0) log(`service exited with ${code}:\n${service.output.slice(-20).join('\n')}`);
      });
      return Object.assign(service, { jwtSecret, dataDir });
    },
  };
  // Once, whoever asks first: on Ctrl-C both the signal handler and the failing scenario's `finally` ask,
  // and two walks over the list (each reversing it) dropped the database and folders only now and then.
  let cleaning: Promise<void> | undefined;
  return {
    ctx,
    cleanup() {
      cleaning ??= (async () => {
        for (const cleanup of cleanups.reverse()) {
          try {
            await cleanup();
          } catch (error) {
            log(`cleanup failed: ${error instanceof Error ? error.message : error}`);
          }
        }
      })();
      return cleaning;
    },
  };
}
