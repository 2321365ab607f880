import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The tests in four projects by kind (README, "Tests"); `npm test` runs them all, `--project <name>` one.
 * A file's kind is read from the file, so a new one lands in the right project by itself:
 * - browser: `*.browser.test.ts`, pages driven in a real headless Chromium;
 * - process: files that need a process of their own: those that start processes (the service on its own,
 *   test/support/service-process.ts, or serviceSandbox of the webhook tests' helpers; a CLI, redis-server,
 *   initdb, vitest), and those that declare GraphQL types or resolvers of their own (planted ones): TypeGraphQL
 *   keeps them in one store per process, which a later file in a shared worker would find in its schema
 *   build or its scan of the store (src/app/schema.test.ts checks every object type there);
 * - perf: files that count SQL statements (test/support/statement-counter.ts records the ORM connections
 *   of every app in the process), so each runs alone in its process and no other app's work (a job left
 *   by an earlier file) is counted;
 * - api: the rest.
 */
type Kind = 'api' | 'browser' | 'process' | 'perf';

const STARTS_PROCESSES = /from 'node:child_process'|\b(startService(Process)?|serviceSandbox)\(/;
const COUNTS_STATEMENTS = /statement-counter\.js'/;
/** A TypeGraphQL class decorator at the start of a line: the file plants types or resolvers of its own. */
const PLANTS_GRAPHQL_TYPES = /^\s*@(ObjectType|InputType|ArgsType|InterfaceType|Resolver)\(/m;

const ROOT = fileURLToPath(new URL('.', import.meta.url));

function kindOf(file: string): Kind {
  if (file.endsWith('.browser.test.ts')) return 'browser';
  const source = readFileSync(ROOT + file, 'utf8');
  if (STARTS_PROCESSES.test(source) || PLANTS_GRAPHQL_TYPES.test(source)) return 'process';
  if (COUNTS_STATEMENTS.test(source)) return 'perf';
  return 'api';
}

function filesByKind(): Record<Kind, string[]> {
  const files: Record<Kind, string[]> = { api: [], browser: [], process: [], perf: [] };
  for (const root of ['src', 'rest', 'test']) {
    for (const path of readdirSync(ROOT + root, { recursive: true, encoding: 'utf8' })) {
      const file = `${root}/${path.replaceAll('\\', '/')}`;
      if (file.endsWith('.test.ts')) files[kindOf(file)].push(file);
    }
  }
  return files;
}

const files = filesByKind();

// Node resolves `graphql` to its CommonJS entry for the packages vitest leaves to Node (type-graphql,
// sofa-api); Vite would pick the ESM one for our code. Two copies of graphql cannot share a schema.
// For the root (its globalSetup builds the schema) and every project.
const resolve = { alias: { graphql: 'graphql/index.js' } };

/** What every project shares. The one PostgreSQL and its template come from the root's globalSetup below. */
function project(name: string, test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration {
  return {
    resolve,
    test: {
      name,
      setupFiles: ['reflect-metadata'],
      pool: 'forks',
      testTimeout: 30_000,
      hookTimeout: 120_000,
      ...test,
    },
  };
}

export default defineConfig({
  resolve,
  test: {
    // Runs once for the whole run whichever projects are selected (the root project's globalSetup always
    // runs, and every project sees what it provides); a project's own globalSetup would run per project.
    globalSetup: ['test/support/global-setup.ts', 'test/support/test-run-cleanup.ts', 'test/support/test-ca.ts', 'test/support/rest-path-summary.ts'],
    projects: [
      // The files of api and browser share their worker's process and modules (no 3-4 s re-import per
      // file) and, where they need no settings of their own, one app per worker (sharedTestApp in
      // test/support/test-app.ts). Each browser file launches and closes its own Chromium.
      project('api', { include: files.api, isolate: false }),
      project('browser', { include: files.browser, isolate: false }),
      project('process', { include: files.process }),
      project('perf', { include: files.perf }),
    ],
  },
});
