import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { HttpClient, signUp } from '../../test/support/http-client.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { loadJwtSecret } from '../core/secrets.js';
import { startServer, type RunningServer } from '../app/server.js';

/**
 * Verified sessions are cached per instance (issue 36), yet a session ended on one instance (or straight
 * in the database) is refused on the very next request to another: the database NOTIFYs every instance,
 * which drops the user's cached sessions. Two services on one database, one data folder (one JWT
 * secret): A takes the changes, B serves the requests. Before each change the test proves B answers
 * the session from its cache (no session statement), so a missing invalidation would let B accept it.
 * Both run in this one process, so what A forgets itself after a change (forgetSessionsHere) reaches B
 * too; the changes made straight in the database are the ones that prove the NOTIFY path.
 */
let a: TestApp;
let b: RunningServer;
beforeAll(async () => {
  a = await startTestApp();
  const config = loadConfig({ PORT: '0', DATA_DIR: a.dataDir, FILE_UPLOAD_DIR: `${a.dataDir}/uploads`, LOG_LEVEL: 'silent', DATABASE_URL: a.databaseUrl, PASSWORD_HASH_COST: 'test' });
  b = await startServer(config, { logger: createLogger('silent') });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const sessionCookie = (client: HttpClient) => client.cookie!;

/** A client of B carrying this cookie. */
function onB(cookie: string): HttpClient {
  const client = new HttpClient(b.url);
  client.cookie = cookie;
  return client;
}

const me = (client: HttpClient) => client.get('/api/v1/auth/me', { outsideContract: true });

/** Statements of the session check a request to B ran (0 when B answered it from its cache). */
async function sessionReads(client: HttpClient, expectStatus = 200): Promise<number> {
  const recorder = recordStatements({ sessionCheck: true });
  try {
    const res = await me(client);
    expect(res.status, res.text).toBe(expectStatus);
  } finally {
    recorder.stop();
  }
  return recorder.statements.filter((s) => /login_sessions/.test(s)).length;
}

/** Requests on B until one is answered without reading the session (B's cache holds it). */
async function cachedOnB(cookie: string): Promise<HttpClient> {
  const client = onB(cookie);
  await expect.poll(() => sessionReads(client), { timeout: 10_000, interval: 50 }).toBe(0);
  return client;
}

function expectRefused(res: { status: number; text: string }) {
  expect(res.status, res.text).toBe(401);
}

/** A second sign-in of the same person (another device). */
async function signIn(email: string, password: string): Promise<HttpClient> {
  const client = new HttpClient(a.url);
  const res = await client.post('/api/v1/auth/login', { email, password });
  expect(res.status, res.text).toBe(200);
  return client;
}

describe('session cache across instances', () => {
  it('B reads a session once, then answers it from its cache', async () => {
    const user = await signUp(a.url);
    const client = onB(sessionCookie(user.client));
    // The first request may or may not find it cached (the listener starts with the service); one
    // statement at most, then none.
    expect(await sessionReads(client)).toBeLessThanOrEqual(1);
    await cachedOnB(sessionCookie(user.client));
    expect((await me(client)).body.data.email).toBe(user.email);
  });

  it('a logout on A refuses the session on B at once', async () => {
    const user = await signUp(a.url);
    const cookie = sessionCookie(user.client);
    const client = await cachedOnB(cookie);
    expect((await user.client.post('/api/v1/auth/logout')).status).toBe(200);
    expectRefused(await me(client));
  });

  it('a session deleted straight in the database (as an administrator would) is refused on B at once', async () => {
    const user = await signUp(a.url);
    const client = await cachedOnB(sessionCookie(user.client));
    await sql(a.databaseUrl, 'delete from login_sessions where user_id = $1', [user.id]);
    expectRefused(await me(client));
  });

  it('a session revoked on A, and the others ended on A, are refused on B at once', async () => {
    const user = await signUp(a.url);
    const laptop = await signIn(user.email, user.password);
    const phone = await signIn(user.email, user.password);
    const laptopOnB = await cachedOnB(sessionCookie(laptop));
    const phoneOnB = await cachedOnB(sessionCookie(phone));
    const sessions = await user.client.get('/api/v1/auth/sessions');
    expect(sessions.status, sessions.text).toBe(200);
    expect(sessions.body.data).toHaveLength(3);
    // The laptop's session: the newest but one (newest first).
    const laptopSession = sessions.body.data[1].id as string;
    expect((await user.client.delete(`/api/v1/auth/sessions/${laptopSession}`)).status).toBe(200);
    expectRefused(await me(laptopOnB));
    expect((await me(phoneOnB)).status).toBe(200);
    expect((await user.client.post('/api/v1/auth/sessions/revoke-others')).status).toBe(200);
    expectRefused(await me(phoneOnB));
    expect((await me(onB(sessionCookie(user.client)))).status).toBe(200);
  });

  it('a password change on A refuses the other sessions on B at once', async () => {
    const user = await signUp(a.url);
    const other = await signIn(user.email, user.password);
    const otherOnB = await cachedOnB(sessionCookie(other));
    const changed = await user.client.post('/api/v1/auth/change-password', { currentPassword: user.password, newPassword: 'another fine password' });
    expect(changed.status, changed.text).toBe(200);
    expectRefused(await me(otherOnB));
  });

  it('an account deleted on A is refused on B at once', async () => {
    const user = await signUp(a.url);
    const client = await cachedOnB(sessionCookie(user.client));
    const res = await user.client.delete('/api/v1/account', { body: { password: user.password } });
    expect(res.status, res.text).toBe(200);
    expectRefused(await me(client));
  });

  it('a change to the user row straight in the database is seen on B at once (the cached row is dropped)', async () => {
    const user = await signUp(a.url);
    const client = await cachedOnB(sessionCookie(user.client));
    const renamed = `renamed-${user.email}`;
    await sql(a.databaseUrl, 'update users set email = $2 where id = $1', [user.id, renamed]);
    expect((await me(client)).body.data.email).toBe(renamed);
  });

  it('a session whose expiry is moved into the past in the database is refused on B at once', async () => {
    const user = await signUp(a.url);
    const client = await cachedOnB(sessionCookie(user.client));
    await sql(a.databaseUrl, `update login_sessions set expires_at = now() - interval '1 second' where user_id = $1`, [user.id]);
    expectRefused(await me(client));
  });

  it('a cached token stops at its own expiry without any notification', async () => {
    const user = await signUp(a.url);
    const [session] = await sql(a.databaseUrl, 'select id from login_sessions where user_id = $1', [user.id]);
    // A token for that live session that expires in a second or two (the session row lives on).
    const shortLived = await b.deps.sessionTokens.sign({ userId: user.id, sessionId: session!.id }, new Date(Date.now() + 2000));
    const client = await cachedOnB(`lp_session=${shortLived}`);
    await expect.poll(async () => (await me(client)).status, { timeout: 5_000, interval: 100 }).toBe(401);
    // The cookie the session was signed in with still works.
    expect((await me(onB(sessionCookie(user.client)))).status).toBe(200);
  });
});

describe('session token checks', () => {
  const segments = (cookie: string) => cookie.slice('lp_session='.length).split('.') as [string, string, string];
  const json = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('refuses a tampered token, on a cached session too', async () => {
    const user = await signUp(a.url);
    const other = await signUp(a.url);
    const cookie = sessionCookie(user.client);
    await cachedOnB(cookie);
    const [header, payload, signature] = segments(cookie);
    // Another user's id in the claims, with the original signature.
    const claims = json(payload);
    const forged = `lp_session=${header}.${encode({ ...claims, sub: other.id })}.${signature}`;
    expectRefused(await me(onB(forged)));
    // A signature changed in one character.
    const flipped = signature.endsWith('A') ? `${signature.slice(0, -1)}B` : `${signature.slice(0, -1)}A`;
    expectRefused(await me(onB(`lp_session=${header}.${payload}.${flipped}`)));
    // An expiry moved later, with the original signature.
    expectRefused(await me(onB(`lp_session=${header}.${encode({ ...claims, exp: claims.exp + 3600 })}.${signature}`)));
    // Not a JWT at all.
    expectRefused(await me(onB('lp_session=not-a-token')));
    expect((await me(onB(cookie))).status).toBe(200);
  });

  it('refuses another algorithm or none, even with the right secret', async () => {
    const user = await signUp(a.url);
    const cookie = sessionCookie(user.client);
    const [, payload] = segments(cookie);
    const claims = json(payload);
    const key = new TextEncoder().encode(await loadJwtSecret(undefined, a.dataDir));
    for (const alg of ['HS384', 'HS512']) {
      const token = await new SignJWT(claims).setProtectedHeader({ alg }).sign(key);
      expectRefused(await me(onB(`lp_session=${token}`)));
    }
    expectRefused(await me(onB(`lp_session=${encode({ alg: 'none' })}.${payload}.`)));
    expectRefused(await me(onB(`lp_session=${encode({ alg: 'none', typ: 'JWT' })}.${payload}`)));
    // The same claims signed as the service signs them pass: only the algorithm was refused.
    const good = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect((await me(onB(`lp_session=${good}`))).status).toBe(200);
  });

  it('refuses an expired token whose session still exists', async () => {
    const user = await signUp(a.url);
    const [session] = await sql(a.databaseUrl, 'select id from login_sessions where user_id = $1', [user.id]);
    const expired = await b.deps.sessionTokens.sign({ userId: user.id, sessionId: session!.id }, new Date(Date.now() - 1000));
    expectRefused(await me(onB(`lp_session=${expired}`)));
  });
});
