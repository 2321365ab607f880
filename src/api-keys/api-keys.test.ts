import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { sql } from '../../test/support/db.js';
import { createKey, expectUnauthorized, KeyClient, MISSING_ID, proUser, setPlan } from '../public-api/public-api.test-helpers.js';
import { hashApiKey } from './api-key-secret.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

/** A cheap authenticated Public API call that writes nothing. */
const probe = (api: KeyClient) => api.get('/exercises/search?q=zzzz-none');

describe('GET /api/v1/subscription', () => {
  it('shows the free default plan with no features', async () => {
    const { client } = await signUp(app.url);
    const res = await client.get('/api/v1/subscription');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, data: { plan: 'free', activePlan: 'free', features: [], expiresAt: null, lapsed: false } });
  });

  it('shows pro with its features and expiry, and a lapsed pro plan as free', async () => {
    const { client, id } = await signUp(app.url);
    const until = new Date(Date.now() + 86_400_000);
    await setPlan(app.databaseUrl, id, 'pro', until);
    let res = await client.get('/api/v1/subscription');
    expect(res.body.data).toEqual({
      plan: 'pro',
      activePlan: 'pro',
      features: ['api_keys', 'webhooks', 'assistant_connector'],
      expiresAt: until.toISOString(),
      lapsed: false,
    });
    await setPlan(app.databaseUrl, id, 'pro', new Date(Date.now() - 1000));
    res = await client.get('/api/v1/subscription');
    expect(res.body.data).toMatchObject({ plan: 'pro', activePlan: 'free', features: [], lapsed: true });
  });

  it('needs a session (401 without one, and with an API key)', async () => {
    const { client } = await proUser(app);
    const { key } = await createKey(client);
    expectUnauthorized(await client.withoutCookie().get('/api/v1/subscription'));
    expectUnauthorized(await client.withoutCookie().get('/api/v1/subscription', { headers: { authorization: `Bearer ${key}` } }));
  });

  it('applies DEFAULT_PLAN to new users', async () => {
    const pro = await startTestApp({ DEFAULT_PLAN: 'pro' });
    try {
      const { client } = await signUp(pro.url);
      expect((await client.get('/api/v1/subscription')).body.data.activePlan).toBe('pro');
      expect((await client.post('/api/v1/api-keys', { name: 'k' })).status).toBe(201);
    } finally {
      await pro.close();
    }
  });
});

describe('API key management', () => {
  it('creates a key: 201, svc_ + 43 base64url characters, shown once, only its hash stored', async () => {
    const { client, id } = await proUser(app);
    const res = await client.post('/api/v1/api-keys', { name: 'Phone shortcut' });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['createdAt', 'expiresAt', 'id', 'key', 'keyPrefix', 'name']);
    expect(data.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(data.key.slice(4), 'base64url')).toHaveLength(32);
    expect(data.key.startsWith(data.keyPrefix)).toBe(true);
    expect(data.keyPrefix).toMatch(/^svc_.{8}$/);
    expect(data.name).toBe('Phone shortcut');

    const rows = await sql(app.databaseUrl, 'select * from api_keys where user_id = $1', [id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashApiKey(data.key));
    expect(JSON.stringify(rows[0])).not.toContain(data.key.slice(12));

    const list = await client.get('/api/v1/api-keys');
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 1 });
    expect(list.body.data[0]).toMatchObject({ id: data.id, name: 'Phone shortcut', keyPrefix: data.keyPrefix, revoked: false, revokedAt: null, lastUsedAt: null, expiresAt: null });
    expect(list.text).not.toContain(data.key);
    expect(list.body.data[0]).not.toHaveProperty('keyHash');
  });

  it('refuses a free plan with 403 SUBSCRIPTION_REQUIRED, and a lapsed pro plan too', async () => {
    const { client, id } = await signUp(app.url);
    const res = await client.post('/api/v1/api-keys', { name: 'k' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'SUBSCRIPTION_REQUIRED' } });
    await setPlan(app.databaseUrl, id, 'pro', new Date(Date.now() - 60_000));
    expect((await client.post('/api/v1/api-keys', { name: 'k' })).status).toBe(403);
    expect((await client.get('/api/v1/api-keys')).body.data).toEqual([]);
  });

  it('validates the name and expiresAt (400 naming the field)', async () => {
    const { client } = await proUser(app);
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 5 }, 'name'],
      [{ name: 'k', expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ name: 'k', expiresAt: new Date(Date.now() - 1000).toISOString() }, 'expiresAt'],
    ] as const) {
      const res = await client.post('/api/v1/api-keys', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.errors[0].path).toEqual([field]);
    }
    expect((await client.get('/api/v1/api-keys')).body.meta.total).toBe(0);
  });

  it('uses a key, revokes it (401 at once), and deletes it', async () => {
    const { client } = await proUser(app);
    const created = await createKey(client, 'Watch');
    const api = new KeyClient(app.url, created.key);
    expect((await probe(api)).status).toBe(200);

    const revoked = await client.post(`/api/v1/api-keys/${created.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.message).toBe('API key revoked');
    const refused = await probe(api);
    expectUnauthorized(refused);
    expect(refused.body.error.details.reason).toBe('revoked');
    const listed = (await client.get('/api/v1/api-keys')).body.data[0];
    expect(listed).toMatchObject({ id: created.id, revoked: true });
    expect(Date.parse(listed.revokedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Revoking again is harmless.
    expect((await client.post(`/api/v1/api-keys/${created.id}/revoke`)).body.data.message).toBe('API key was already revoked');

    const del = await client.delete(`/api/v1/api-keys/${created.id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: created.id, message: 'API key deleted' });
    expect((await client.get('/api/v1/api-keys')).body.data).toEqual([]);
    expect((await client.delete(`/api/v1/api-keys/${created.id}`)).status).toBe(404);
  });

  it('deleting an active key stops it at once', async () => {
    const { client } = await proUser(app);
    const created = await createKey(client);
    const api = new KeyClient(app.url, created.key);
    expect((await probe(api)).status).toBe(200);
    expect((await client.delete(`/api/v1/api-keys/${created.id}`)).status).toBe(200);
    expect((await probe(api)).body.error.details.reason).toBe('unknown');
  });

  it('rotates a key: the old one answers 401 at once, the new one (shown once) works, named with a rotated suffix', async () => {
    const { client } = await proUser(app);
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const old = await createKey(client, 'Garmin', { expiresAt });
    const oldApi = new KeyClient(app.url, old.key);
    expect((await probe(oldApi)).status).toBe(200);

    const res = await client.post(`/api/v1/api-keys/${old.id}/rotate`);
    expect(res.status).toBe(200);
    const fresh = res.body.data;
    expect(fresh.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(fresh.key).not.toBe(old.key);
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.name).toBe('Garmin (rotated)');
    expect(fresh.expiresAt).toBe(expiresAt);

    expect((await probe(oldApi)).body.error.details.reason).toBe('revoked');
    expect((await probe(new KeyClient(app.url, fresh.key))).status).toBe(200);

    const list = (await client.get('/api/v1/api-keys')).body.data;
    expect(list.map((k: any) => `${k.name}:${k.revoked}`).sort()).toEqual(['Garmin (rotated):false', 'Garmin:true']);
    // A second rotation keeps a single suffix; a revoked key cannot be rotated.
    const again = await client.post(`/api/v1/api-keys/${fresh.id}/rotate`);
    expect(again.body.data.name).toBe('Garmin (rotated)');
    const refused = await client.post(`/api/v1/api-keys/${old.id}/rotate`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.rule).toBe('api_key_inactive');
  });

  it('rotation needs the plan too (403 on free, the key stays as it was)', async () => {
    const { client, id } = await proUser(app);
    const created = await createKey(client);
    await setPlan(app.databaseUrl, id, 'free');
    const res = await client.post(`/api/v1/api-keys/${created.id}/rotate`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('SUBSCRIPTION_REQUIRED');
    expect((await client.get('/api/v1/api-keys')).body.data).toEqual([expect.objectContaining({ id: created.id, revoked: false })]);
  });

  it('refuses an expired key (expiresAt passed) with 401', async () => {
    const { client } = await proUser(app);
    const created = await createKey(client, 'Short-lived', { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const api = new KeyClient(app.url, created.key);
    expect((await probe(api)).status).toBe(200);
    await sql(app.databaseUrl, `update api_keys set expires_at = now() - interval '1 second' where id = $1`, [created.id]);
    const res = await probe(api);
    expectUnauthorized(res);
    expect(res.body.error.details.reason).toBe('expired');
  });

  it('refuses every key of an owner whose plan lapsed (401), and accepts them again when renewed', async () => {
    const { client, id } = await proUser(app);
    const api = new KeyClient(app.url, (await createKey(client)).key);
    expect((await probe(api)).status).toBe(200);
    await setPlan(app.databaseUrl, id, 'pro', new Date(Date.now() - 1000));
    const res = await probe(api);
    expectUnauthorized(res);
    expect(res.body.error.details.reason).toBe('plan_lapsed');
    await setPlan(app.databaseUrl, id, 'free');
    expectUnauthorized(await probe(api));
    await setPlan(app.databaseUrl, id, 'pro', new Date(Date.now() + 86_400_000));
    expect((await probe(api)).status).toBe(200);
  });

  it('answers 401 for a missing, malformed or unknown key, with WWW-Authenticate', async () => {
    const anon = new KeyClient(app.url, '');
    const cases: [Record<string, string>, string][] = [
      [{}, 'missing'],
      [{ authorization: 'Bearer' }, 'malformed'],
      [{ authorization: 'Basic dXNlcjpwYXNz' }, 'malformed'],
      [{ authorization: 'Bearer svc_short' }, 'malformed'],
      [{ authorization: `Bearer sk_${'a'.repeat(43)}` }, 'malformed'],
      [{ authorization: `Bearer svc_${'a'.repeat(43)}` }, 'unknown'],
    ];
    for (const [headers, reason] of cases) {
      const res = await anon.http.post('/api/public/v1/water', { volume: 250 }, { headers });
      expectUnauthorized(res);
      expect(res.body.error.details.reason).toBe(reason);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="public-api"/);
      expect(res.headers.get('api-version')).toBe('v1');
    }
  });

  it('records lastUsedAt without a write per request (at most once a minute)', async () => {
    const { client } = await proUser(app);
    const created = await createKey(client);
    const api = new KeyClient(app.url, created.key);
    await probe(api);
    const readLastUsed = async () => (await sql(app.databaseUrl, 'select last_used_at from api_keys where id = $1', [created.id]))[0]!.last_used_at as Date | null;
    let first: Date | null = null;
    for (let i = 0; i < 50 && !first; i++) {
      first = await readLastUsed();
      if (!first) await new Promise((r) => setTimeout(r, 20));
    }
    expect(first).not.toBeNull();
    for (let i = 0; i < 5; i++) await probe(api);
    await new Promise((r) => setTimeout(r, 100));
    expect((await readLastUsed())!.getTime()).toBe(first!.getTime());
    const listed = (await client.get('/api/v1/api-keys')).body.data[0];
    expect(Date.parse(listed.lastUsedAt)).toBe(first!.getTime());
  });

  it('key management takes the session cookie only: an API key is refused there (401)', async () => {
    const { client } = await proUser(app);
    const created = await createKey(client);
    const bearer = { headers: { authorization: `Bearer ${created.key}` } };
    const anon = client.withoutCookie();
    expectUnauthorized(await anon.get('/api/v1/api-keys', bearer));
    expectUnauthorized(await anon.post('/api/v1/api-keys', { name: 'sneaky' }, bearer));
    expectUnauthorized(await anon.post(`/api/v1/api-keys/${created.id}/revoke`, undefined, bearer));
    expectUnauthorized(await anon.post(`/api/v1/api-keys/${created.id}/rotate`, undefined, bearer));
    expectUnauthorized(await anon.delete(`/api/v1/api-keys/${created.id}`, bearer));
    expect((await client.get('/api/v1/api-keys')).body.data).toEqual([expect.objectContaining({ id: created.id, revoked: false })]);
  });
});

describe('isolation', () => {
  let alice: Awaited<ReturnType<typeof proUser>>;
  let bob: Awaited<ReturnType<typeof proUser>>;
  let aliceKey: Awaited<ReturnType<typeof createKey>>;
  beforeAll(async () => {
    alice = await proUser(app);
    bob = await proUser(app);
    aliceKey = await createKey(alice.client, 'Alice');
    await createKey(bob.client, 'Bob');
  });

  it('another user\'s key id answers 404 on every REST route, like a missing one', async () => {
    for (const id of [aliceKey.id, MISSING_ID]) {
      for (const res of [
        await bob.client.post(`/api/v1/api-keys/${id}/revoke`),
        await bob.client.post(`/api/v1/api-keys/${id}/rotate`),
        await bob.client.delete(`/api/v1/api-keys/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
    expect((await bob.client.get('/api/v1/api-keys')).body.data.map((k: any) => k.name)).toEqual(['Bob']);
    expect((await probe(new KeyClient(app.url, aliceKey.key))).status).toBe(200);
  });

  it('another user\'s key id answers NOT_FOUND through GraphQL too', async () => {
    for (const mutation of ['revokeApiKey(keyId: $id) { id }', 'rotateApiKey(keyId: $id) { id }', 'deleteApiKey(keyId: $id) { id }']) {
      const res = await bob.client.graphql(`mutation ($id: UUID!) { ${mutation} }`, { id: aliceKey.id });
      expect(res.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    const list = await bob.client.graphql('{ apiKeys { items { name } meta { total } } }');
    expect(list.body.data.apiKeys).toEqual({ items: [{ name: 'Bob' }], meta: { total: 1 } });
    const mine = await alice.client.graphql('{ apiKeys { items { id revoked } } }');
    expect(mine.body.data.apiKeys.items).toEqual([{ id: aliceKey.id, revoked: false }]);
  });

  it('an id that is not a UUID is a validation error', async () => {
    const res = await bob.client.post('/api/v1/api-keys/not-a-uuid/revoke');
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors[0].path).toEqual(['keyId']);
  });
});
