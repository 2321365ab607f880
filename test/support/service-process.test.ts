import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';
import { startServiceProcess } from './service-process.js';
import { isProcessAlive as alive } from '../../src/core/database/database-url.js';

describe('the service as its own process (npm start)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves, then stops cleanly with exit code 0 on SIGTERM', async () => {
    const service = await startServiceProcess({ DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir });
    expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    expect(await service.stop()).toBe(0);
    expect(service.output.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
  });

  it('runs from the esbuild build that npm start runs (scripts/build.ts), and stops cleanly', async () => {
    // Inside the project, so the build resolves node_modules as dist/ does.
    const outdir = await mkdtemp(join(process.cwd(), '.build-test-'));
    try {
      const built = spawnSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'scripts', 'build.ts'), '--outdir', outdir], { encoding: 'utf8' });
      expect(built.status, built.stderr).toBe(0);
      const service = await startServiceProcess({ DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir }, 60_000, join(outdir, 'src', 'app', 'main.js'));
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
      const register = await fetch(`${service.url}/api/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `built-${Date.now()}@example.com`, password: 'long enough password' }),
      });
      expect(register.status).toBe(201);
      // Parts the build loads on first use (chunks): compiled GraphQL execution, the connector's OAuth router.
      const graphql = await fetch(`${service.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
      expect(await graphql.json()).toEqual({ data: { __typename: 'Query' } });
      const metadata = await fetch(`${service.url}/.well-known/oauth-authorization-server`);
      expect(metadata.status).toBe(200);
      expect(await service.stop()).toBe(0);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it('with no DATABASE_URL starts an embedded PostgreSQL under DATA_DIR/pg and stops it on SIGINT', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'lp-embedded-'));
    // As root, PostgreSQL runs as an unprivileged user that must be able to reach DATA_DIR/pg.
    await chmod(dataDir, 0o755);
    try {
      const service = await startServiceProcess({ DATABASE_URL: undefined, DATA_DIR: dataDir }, 120_000);
      expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      const register = await fetch(`${service.url}/api/v1/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'embedded@example.com', password: 'long enough password' }),
      });
      expect(register.status).toBe(201);
      const postmasterPid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      expect(alive(postmasterPid)).toBe(true);
      service.child.kill('SIGINT');
      expect(await service.stop()).toBe(0);
      expect(alive(postmasterPid)).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('refuses a bad setting with one line naming it', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/app/main.ts'], {
      env: { PATH: process.env.PATH, PORT: 'eighty', HOME: process.env.HOME },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n').filter((l) => !l.includes('ExperimentalWarning'));
    expect(lines).toEqual(['Invalid setting PORT: expected a whole number, got "eighty"']);
  }, 90_000);
});
