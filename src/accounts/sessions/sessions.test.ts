import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { HttpClient, signUp } from '../../../test/support/http-client.js';
import { sql } from '../../../test/support/db.js';
import { expectNotFound, expectStatus } from '../../../test/support/expectations.js';
import { ipRangeOf } from '../sign-in/ip-range.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

/** Another browser of the same person: signs in with its own User-Agent. */
async function signInAs(email: string, password: string, userAgent: string): Promise<HttpClient> {
  const client = new HttpClient(app.url);
  const res = await client.post('/api/v1/auth/login', { email, password }, { headers: { 'user-agent': userAgent } });
  expectStatus(res, 200);
  return client;
}

describe('GET /auth/sessions', () => {
  it('lists the person\'s sessions newest first with device, network and which is current; no other person\'s', async () => {
    const user = await signUp(app.url);
    const other = await signUp(app.url);
    const phone = await signInAs(user.email, user.password, 'PhoneBrowser/1.0');
    const long = `LongAgent/${'x'.repeat(400)}`;
    await signInAs(user.email, user.password, long);

    const res = await phone.get('/api/v1/auth/sessions');
    expectStatus(res, 200);
    const sessions = res.body.data;
    expect(sessions).toHaveLength(3);
    expect(Object.keys(sessions[0]).sort()).toEqual(['createdAt', 'current', 'id', 'ipRange', 'lastUsedAt', 'userAgent']);
    const times = sessions.map((s: any) => Date.parse(s.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(sessions.filter((s: any) => s.current).map((s: any) => s.userAgent)).toEqual(['PhoneBrowser/1.0']);
    expect(sessions[0].userAgent).toBe(long.slice(0, 255));
    // The test client connects over loopback: its /24, never the address itself.
    for (const s of sessions) expect(s.ipRange).toBe('127.0.0.0/24');
    const otherIds = (await other.client.get('/api/v1/auth/sessions')).body.data.map((s: any) => s.id);
    expect(otherIds).toHaveLength(1);
    expect(sessions.map((s: any) => s.id)).not.toContain(otherIds[0]);

    const gql = await phone.graphql('{ sessions { id current userAgent ipRange lastUsedAt createdAt } }');
    expect(gql.body.data.sessions.map((s: any) => s.id)).toEqual(sessions.map((s: any) => s.id));
  });

  it('stamps lastUsedAt on use, at most once a minute', async () => {
    const user = await signUp(app.url);
    const [{ id }] = await sql(app.databaseUrl, 'select id from login_sessions where user_id = $1', [user.id]);
    const lastUsed = async () => (await sql(app.databaseUrl, 'select last_used_at from login_sessions where id = $1', [id]))[0]!.last_used_at as Date;

    await sql(app.databaseUrl, "update login_sessions set last_used_at = now() - interval '30 seconds' where id = $1", [id]);
    const recent = await lastUsed();
    expectStatus(await user.client.get('/api/v1/auth/me'), 200);
    expect(await lastUsed()).toEqual(recent);

    // The instance keeps a checked session for up to 30 s (session-auth.ts) and stamps when it checks
    // again; naming `expires_at` in the update NOTIFYs it to drop the session, so this use checks again.
    await sql(app.databaseUrl, "update login_sessions set last_used_at = now() - interval '2 minutes', expires_at = expires_at where id = $1", [id]);
    expectStatus(await user.client.get('/api/v1/auth/me'), 200);
    expect(Date.now() - (await lastUsed()).getTime()).toBeLessThan(10_000);
    const listed = (await user.client.get('/api/v1/auth/sessions')).body.data[0];
    expect(Date.now() - Date.parse(listed.lastUsedAt)).toBeLessThan(10_000);
  });
});

describe('ending sessions', () => {
  it('DELETE /auth/sessions/:id ends that session at once; another person\'s id is 404 like a missing one', async () => {
    const user = await signUp(app.url);
    const laptop = await signInAs(user.email, user.password, 'Laptop/2.0');
    const intruder = await signUp(app.url);
    const list = (await user.client.get('/api/v1/auth/sessions')).body.data;
    const laptopId = list.find((s: any) => s.userAgent === 'Laptop/2.0').id;

    expectNotFound(await intruder.client.delete(`/api/v1/auth/sessions/${laptopId}`));
    expectNotFound(await user.client.delete(`/api/v1/auth/sessions/${randomUUID()}`));
    expectStatus(await laptop.get('/api/v1/auth/me'), 200);

    const ended = await user.client.delete(`/api/v1/auth/sessions/${laptopId}`);
    expectStatus(ended, 200);
    expect(ended.body.data).toEqual({ id: laptopId, message: 'Session deleted' });
    expectStatus(await laptop.get('/api/v1/auth/me'), 401, 'UNAUTHORIZED');
    expectStatus(await laptop.graphql('{ me { id } }'), 200);
    expect((await laptop.graphql('{ me { id } }')).body.errors![0].extensions.code).toBe('UNAUTHORIZED');
    expectStatus(await user.client.get('/api/v1/auth/me'), 200);
    expectNotFound(await user.client.delete(`/api/v1/auth/sessions/${laptopId}`));
  });

  it('ending the current session signs out (the cookie is cleared)', async () => {
    const user = await signUp(app.url);
    const [current] = (await user.client.get('/api/v1/auth/sessions')).body.data;
    const res = await user.client.delete(`/api/v1/auth/sessions/${current.id}`);
    expectStatus(res, 200);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('lp_session='))).toMatch(/^lp_session=;/);
  });

  it('POST /auth/sessions/revoke-others keeps only the current one', async () => {
    const user = await signUp(app.url);
    const a = await signInAs(user.email, user.password, 'A/1');
    const b = await signInAs(user.email, user.password, 'B/1');
    const res = await a.post('/api/v1/auth/sessions/revoke-others', {});
    expectStatus(res, 200);
    expect(res.body.data).toEqual({ revoked: 2, message: '2 other sessions ended' });
    expectStatus(await a.get('/api/v1/auth/me'), 200);
    expectStatus(await b.get('/api/v1/auth/me'), 401, 'UNAUTHORIZED');
    expectStatus(await user.client.get('/api/v1/auth/me'), 401, 'UNAUTHORIZED');
    const left = (await a.get('/api/v1/auth/sessions')).body.data;
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ current: true, userAgent: 'A/1' });
  });

  it('needs a session', async () => {
    const anonymous = new HttpClient(app.url);
    expectStatus(await anonymous.get('/api/v1/auth/sessions'), 401, 'UNAUTHORIZED');
    expectStatus(await anonymous.post('/api/v1/auth/sessions/revoke-others', {}), 401, 'UNAUTHORIZED');
    expectStatus(await anonymous.delete(`/api/v1/auth/sessions/${randomUUID()}`), 401, 'UNAUTHORIZED');
  });
});

describe('ipRangeOf', () => {
  it('keeps the network only: IPv4 /24, IPv6 /48, mapped IPv4 as IPv4', () => {
    expect(ipRangeOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(ipRangeOf('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(ipRangeOf('2001:db8:abcd:12:34::1')).toBe('2001:db8:abcd::/48');
    expect(ipRangeOf('2001:db8::1')).toBe('2001:db8::/48');
    expect(ipRangeOf('2001:0db8:0001:0002::')).toBe('2001:db8:1::/48');
    expect(ipRangeOf('::1')).toBe('::/48');
    expect(ipRangeOf('fe80::1%eth0')).toBe('fe80::/48');
    expect(ipRangeOf('0:db8:1::')).toBe('0:db8:1::/48');
    expect(ipRangeOf('64:ff9b::192.0.2.33')).toBe('64:ff9b::/48');
    expect(ipRangeOf('not an address')).toBeNull();
    expect(ipRangeOf(undefined)).toBeNull();
  });
});
