import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { User } from './user.entity.js';
import { parseExpiry } from './account-admin.service.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The parent environment minus what vitest adds (it sets BASE_URL to "/", not a URL). */
function childEnv(): NodeJS.ProcessEnv {
  const { BASE_URL: _vite, ...env } = process.env;
  return { ...env, DATABASE_URL: app.databaseUrl, DATA_DIR: app.dataDir, LOG_LEVEL: 'silent' };
}

/** The real command, as an operator types it, against the test app's database. */
function admin(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'scripts/admin.ts', ...args],
      {
        cwd: process.cwd(),
        env: childEnv(),
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        // npm may add its own warnings on stderr; keep only the command's lines.
        resolve({ code, stdout, stderr: stderr.split('\n').filter((l) => l && !l.startsWith('npm warn')).join('\n') });
      },
    );
  });
}

// Each run starts a process (tsx, ORM, migrations check): allow for a loaded machine.
const SLOW = 120_000;

let n = 0;
const newEmail = () => `admin${Date.now()}_${process.pid}_${++n}@example.com`;

async function userRow(email: string): Promise<User> {
  return app.server.orm.em.fork().findOneOrFail(User, { email });
}

describe('npm run admin -- create-user', { timeout: SLOW }, () => {
  it('creates a verified user who can sign in, on the plan asked for', async () => {
    const email = newEmail();
    const run = await admin('create-user', email.toUpperCase(), 'admin password 1', '--plan', 'pro');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stdout).toContain(email);

    const client = new HttpClient(app.url);
    const login = await client.post('/api/v1/auth/login', { email, password: 'admin password 1' });
    expect(login.status).toBe(200);
    expect(login.body.data.user.email).toBe(email);
    // Verified: GraphQL answers emailVerifiedAt (REST's user is the spec's id, email, createdAt).
    expect((await client.graphql('{ me { emailVerifiedAt } }')).body.data!.me.emailVerifiedAt).toEqual(expect.any(String));

    const row = await userRow(email);
    expect(row.plan).toBe('pro');
    expect(row.planExpiresAt).toBeNull();
    expect(row.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('refuses an existing email, a bad plan and bad usage with one line and a non-zero exit', async () => {
    const { email } = await signUp(app.url);
    const [existing, badPlan, missing, unknown] = await Promise.all([
      admin('create-user', email, 'another password'),
      admin('create-user', newEmail(), 'admin password 1', '--plan', 'gold'),
      admin('create-user', newEmail()),
      admin('frobnicate'),
    ]);
    expect(existing.code).not.toBe(0);
    expect(existing.stderr).toBe(`error: a user with email ${email} already exists`);
    expect(badPlan.code).not.toBe(0);
    expect(badPlan.stderr).toBe('error: plan must be one of free, pro, got "gold"');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.split('\n')[0]).toBe('error: create-user needs <email> <password>');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.split('\n')[0]).toBe('error: unknown command "frobnicate"');
    const row = await userRow(email);
    expect(row.plan).toBe('free');
  });
});

describe('npm run admin -- set-plan', { timeout: SLOW }, () => {
  it('gives a plan with an expiry, a lapsed one, and back to free', async () => {
    const { email } = await signUp(app.url);

    const future = await admin('set-plan', email, 'pro', '--expires', '2031-05-01T10:00:00+02:00');
    expect(future, future.stderr).toMatchObject({ code: 0 });
    let row = await userRow(email);
    expect(row.plan).toBe('pro');
    expect(row.planExpiresAt?.toISOString()).toBe('2031-05-01T08:00:00.000Z');

    const lapsed = await admin('set-plan', email, 'pro', '--expires', '2020-01-01');
    expect(lapsed, lapsed.stderr).toMatchObject({ code: 0 });
    expect(lapsed.stdout).toContain('lapsed');
    row = await userRow(email);
    expect(row.planExpiresAt?.toISOString()).toBe('2020-01-01T00:00:00.000Z');

    const free = await admin('set-plan', email, 'free');
    expect(free, free.stderr).toMatchObject({ code: 0 });
    row = await userRow(email);
    expect(row.plan).toBe('free');
    expect(row.planExpiresAt).toBeNull();
  });

  it('refuses an unknown email, a bad plan and a bad date without changing anything', async () => {
    const { email } = await signUp(app.url);
    const [unknown, badPlan, badDate, impossibleDate] = await Promise.all([
      admin('set-plan', 'nobody-here@example.com', 'pro'),
      admin('set-plan', email, 'platinum'),
      admin('set-plan', email, 'pro', '--expires', 'next tuesday'),
      admin('set-plan', email, 'pro', '--expires', '2030-02-30'),
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toBe('error: no user with email nobody-here@example.com');
    expect(badPlan.code).not.toBe(0);
    expect(badPlan.stderr).toBe('error: plan must be one of free, pro, got "platinum"');
    for (const run of [badDate, impossibleDate]) {
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/^error: expires must be an ISO 8601 date or date-time/);
      expect(run.stderr.split('\n')).toHaveLength(1);
    }
    const row = await userRow(email);
    expect(row.plan).toBe('free');
    expect(row.planExpiresAt).toBeNull();
  });
});

describe('parseExpiry', () => {
  it('reads ISO 8601 dates and date-times and refuses the rest', () => {
    expect(parseExpiry('2030-01-31').toISOString()).toBe('2030-01-31T00:00:00.000Z');
    expect(parseExpiry('2030-01-31T12:30:00Z').toISOString()).toBe('2030-01-31T12:30:00.000Z');
    expect(parseExpiry('2030-01-31T12:30:00.250+0100').toISOString()).toBe('2030-01-31T11:30:00.250Z');
    for (const bad of ['2030-13-01', '2030-02-29', '31/01/2030', '2030-01-31T25:00Z', '', 'tomorrow']) {
      expect(() => parseExpiry(bad), bad).toThrow(/ISO 8601/);
    }
    expect(parseExpiry('2028-02-29').toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });
});
