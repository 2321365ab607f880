import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { openDatabaseServer } from './lib/database.js';
import type { LoadSettings } from './lib/load.js';
import { projectRoot } from './lib/processes.js';
import { writeResults } from './lib/report.js';
import { createScenarioContext, type Scenario } from './lib/scenario.js';

/**
 * `npm run bench [-- <scenario>…] [--duration=10] [--warmup=3] [--connections=32] [--profile]`
 *
 * Scenarios, by name. Adding one = a file in bench/scenarios/ default-exporting a `Scenario`, plus one
 * line here.
 */
const scenarios: Record<string, () => Promise<{ default: Scenario }>> = {
  'week-read': () => import('./scenarios/week-read.js'),
  'public-water': () => import('./scenarios/public-water.js'),
  'file-variants': () => import('./scenarios/file-variants.js'),
  'webhook-deliveries': () => import('./scenarios/webhook-deliveries.js'),
  startup: () => import('./scenarios/startup.js'),
  mixed: () => import('./scenarios/mixed.js'),
  'list-bomb': () => import('./scenarios/list-bomb.js'),
  imports: () => import('./scenarios/imports.js'),
  'agenda-feed': () => import('./scenarios/agenda-feed.js'),
  'image-burst': () => import('./scenarios/image-burst.js'),
  'reminders-due': () => import('./scenarios/reminders-due.js'),
  'live-sockets': () => import('./scenarios/live-sockets.js'),
  'live-alias-bomb': () => import('./scenarios/live-alias-bomb.js'),
  'real-exports': () => import('./scenarios/real-exports.js'),
  'live-budget': () => import('./scenarios/live-budget.js'),
  'recurrence-horizon': () => import('./scenarios/recurrence-horizon.js'),
  'scale-out': () => import('./scenarios/scale-out.js'),
  'quick-add': () => import('./scenarios/quick-add.js'),
  insights: () => import('./scenarios/insights.js'),
  sync: () => import('./scenarios/sync.js'),
};

function parseArgs(argv: string[]) {
  const names: string[] = [];
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const flag = /^--([\w-]+)(?:=(.*))?$/.exec(arg);
    if (flag) flags.set(flag[1]!, flag[2] ?? 'true');
    else names.push(arg);
  }
  return { names, flags };
}

function numberSetting(flags: Map<string, string>, flag: string, env: string, fallback: number): number {
  const raw = flags.get(flag) ?? process.env[env];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${flag} (${env}) must be a non-negative number, got ${raw}`);
  return value;
}

async function main(): Promise<number> {
  const { names, flags } = parseArgs(process.argv.slice(2));
  if (flags.has('help') || flags.has('list')) {
    console.log(`usage: npm run bench [-- <scenario>…] [--duration=s] [--warmup=s] [--connections=n] [--profile]`);
    console.log(`scenarios: ${Object.keys(scenarios).join(', ')}`);
    return 0;
  }
  const unknown = names.filter((name) => !(name in scenarios));
  if (unknown.length) {
    console.error(`unknown scenario ${unknown.join(', ')}; known: ${Object.keys(scenarios).join(', ')}`);
    return 2;
  }
  const load: LoadSettings = {
    durationS: numberSetting(flags, 'duration', 'BENCH_DURATION', 10),
    warmupS: numberSetting(flags, 'warmup', 'BENCH_WARMUP', 3),
    connections: numberSetting(flags, 'connections', 'BENCH_CONNECTIONS', 32),
  };
  const profile = flags.has('profile');
  const selected = names.length ? names : Object.keys(scenarios);

  // The service runs as `npm start` runs it: built to dist/ from the current sources.
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts', 'build.ts')], { cwd: projectRoot, stdio: 'inherit' });
  if (built.status !== 0) return 1;

  const server = await openDatabaseServer((line) => console.log(`[bench] ${line}`));
  // Ctrl-C: stop the processes, drop the databases and stop the embedded PostgreSQL before leaving.
  let interruptCleanup: (() => Promise<void>) | undefined;
  const interrupt = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: cleaning up`);
    void (async () => {
      await interruptCleanup?.().catch(() => undefined);
      await server.close().catch(() => undefined);
      process.exit(130);
    })();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let failed = 0;
  try {
    for (const name of selected) {
      const scenario = (await scenarios[name]!()).default;
      console.log(`\n=== ${scenario.name}: ${scenario.description}`);
      const { ctx, cleanup } = createScenarioContext(scenario.name, server, load, profile);
      interruptCleanup = cleanup;
      try {
        const results = await scenario.run(ctx);
        const path = await writeResults(scenario.name, results);
        console.log(`\nresults written to ${path}`);
      } catch (error) {
        failed++;
        console.error(`[${scenario.name}] failed:`, error);
      } finally {
        await cleanup();
      }
    }
  } finally {
    await server.close();
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
