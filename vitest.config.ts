import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The tests in four projects by kind (README, "Tests"); `npm test` runs them all, `--project <name>` one.
 * Each file belongs to exactly one: browser, process and perf are named here, api takes the rest.
 */
const TEST_FILES = ['src/**/*.test.ts', 'rest/**/*.test.ts', 'test/**/*.test.ts'];

/** Pages driven in a real headless Chromium. */
const BROWSER = ['**/*.browser.test.ts'];

/** Files that start processes: the service itself (test/support/service-process.ts), a CLI, redis-server, initdb, vitest. */
const PROCESS = [
  'src/accounts/account-admin.test.ts',
  'src/core/database/embedded-postgres-root.test.ts',
  'src/gamification/gamification.webhooks.test.ts',
  'src/portability/export/export.memory.test.ts',
  'src/reminders/reminders.process.test.ts',
  'src/webhooks/webhooks.restart.test.ts',
  'test/resilience/database-outage.test.ts',
  'test/resilience/graceful-shutdown.test.ts',
  'test/resilience/redis-outage.test.ts',
  'test/support/exit-code.test.ts',
  'test/support/service-process.test.ts',
];

/**
 * Files that count the SQL statements of their app (test/support/statement-counter.ts records every
 * statement of the process): each runs alone in its process, so no other app's background work is counted.
 */
const PERF = [
  'test/perf/**/*.test.ts',
  'src/accounts/account-mail-timing.test.ts',
  'src/agenda/agenda-read-queries.test.ts',
  'src/api-keys/api-key-cache.test.ts',
  'src/brain/brain-read-queries.test.ts',
  'src/brain/databases/databases.test.ts',
  'src/connector/connector.oauth.test.ts',
  'src/core/database/read-rows.test.ts',
  'src/core/events/insert-with-event.test.ts',
  'src/gamification/gamification.shop.test.ts',
  'src/live/live-budget.test.ts',
  'src/planning/week-read-queries.test.ts',
  'src/projects/board-read-queries.test.ts',
  'src/public-api/public-write-statements.test.ts',
  'src/social/social.test.ts',
  'src/tasks/tasks.graphql.test.ts',
  'src/training/training-metrics.test.ts',
  'src/training/training-sessions.test.ts',
  'src/wellness/wellness.test.ts',
];

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
    globalSetup: ['test/support/global-setup.ts', 'test/support/test-run-cleanup.ts', 'test/support/test-ca.ts'],
    projects: [
      // Files share their worker's process and modules (no 3-4 s re-import per file) and, where they need
      // no settings of their own, one app per worker (sharedTestApp in test/support/test-app.ts).
      project('api', { include: TEST_FILES, exclude: [...configDefaults.exclude, ...BROWSER, ...PROCESS, ...PERF], isolate: false }),
      project('browser', { include: BROWSER }),
      project('process', { include: PROCESS }),
      project('perf', { include: PERF }),
    ],
  },
});
