import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.js';
import { builtService, startServiceProcess } from './service-process.js';
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

  it('runs from the esbuild build that npm start runs (scripts/build.ts), chunks loaded on first use included', async () => {
    expect(await builtService()).toMatch(/[/\\]src[/\\]app[/\\]main\.js$/);
    const service = await startServiceProcess({ DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir });
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

  it.each([
    [{ PORT: 'eighty' }, 'Invalid setting PORT: expected a whole number, got "eighty"'],
    [{ NODE_ENV: 'production', PASSWORD_HASH_COST: 'test' }, 'Invalid setting PASSWORD_HASH_COST: "test" is for test runs and refused with NODE_ENV=production'],
  ])('refuses a bad setting with one line naming it (%o)', async (env, line) => {
    const result = spawnSync(process.execPath, [await builtService()], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([line]);
  }, 90_000);
});
