import { hostname } from 'node:os';
import { lookup } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { isPublicAddress } from '../http/url-guard.js';
import { MISSING_ID, setPlan } from './webhooks.test-helpers.js';

/**
 * Management rules with the SSRF guard on (WEBHOOK_ALLOW_PRIVATE_URLS unset). URLs use literal public
 * addresses (no DNS needed); nothing is delivered here — deliveries are in webhooks.delivery.test.ts.
 */
const PUBLIC_URL = 'https://93.184.216.34/hooks/life';
let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let free: HttpClient;
let aliceHook: any;

beforeAll(async () => {
  app = await startTestApp();
  const a = await signUp(app.url);
  const b = await signUp(app.url);
  const f = await signUp(app.url);
  alice = a.client;
  bob = b.client;
  free = f.client;
  await setPlan(app.databaseUrl, a.id, 'pro');
  await setPlan(app.databaseUrl, b.id, 'pro');
  const res = await alice.post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['task_created', 'task_completed'] });
  expect(res.status).toBe(201);
  aliceHook = res.body.data;
});
afterAll(async () => {
  await app?.close();
});

function expectRefused(res: { status: number; body: any }, path: unknown[], rule?: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.errors[0].path).toEqual(path);
  if (rule) expect(res.body.error.details.rule).toBe(rule);
}

describe('create', () => {
  it('answers 201 with the secret, shown only this once', async () => {
    expect(aliceHook).toMatchObject({ url: PUBLIC_URL, events: ['task_created', 'task_completed'], active: true });
    // The spec's fields of a new webhook (its updatedAt is GraphQL's: issue 36, item 6).
    expect(Object.keys(aliceHook).sort()).toEqual(['active', 'createdAt', 'events', 'id', 'secret', 'secretPrefix', 'url']);
    expect(aliceHook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(aliceHook.secret.slice(6), 'base64url')).toHaveLength(32);
    expect(aliceHook.secret.startsWith(aliceHook.secretPrefix)).toBe(true);
    expect(aliceHook.secretPrefix.length).toBeLessThan(16);

    const list = await alice.get('/api/v1/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ page: 1, total: 1 });
    expect(list.body.data[0]).toMatchObject({ id: aliceHook.id, secretPrefix: aliceHook.secretPrefix, stats: { total: 0, success: 0, failed: 0, pending: 0 } });
    expect(JSON.stringify(list.body)).not.toContain(aliceHook.secret);
    const gql = await alice.graphql('{ webhooks { items { id secretPrefix } } }');
    expect(JSON.stringify(gql.body)).not.toContain(aliceHook.secret);
  });

  it('keeps the secret encrypted at rest', async () => {
    const em = app.server.orm.em.fork();
    const [row] = await em.getConnection().execute('select secret_encrypted from webhook_endpoints where id = ?', [aliceHook.id]);
    expect(row.secret_encrypted).not.toContain(aliceHook.secret.slice(6));
    expect(row.secret_encrypted).toMatch(/^v1\./);
  });

  it('refuses a URL that is not https', async () => {
    expectRefused(await alice.post('/api/v1/webhooks', { url: 'http://93.184.216.34/hook', events: ['task_created'] }), ['url'], 'webhook_url');
    expectRefused(await alice.post('/api/v1/webhooks', { url: 'ftp://93.184.216.34/hook', events: ['task_created'] }), ['url'], 'webhook_url');
    expectRefused(await alice.post('/api/v1/webhooks', { url: 'not a url', events: ['task_created'] }), ['url'], 'webhook_url');
    expectRefused(await alice.post('/api/v1/webhooks', { url: 'https://user:pw@93.184.216.34/hook', events: ['task_created'] }), ['url'], 'webhook_url');
  });

  it('refuses unknown event names and an empty list', async () => {
    expectRefused(await alice.post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['task_created', 'task_exploded'] }), ['events', 1], 'webhook_event');
    const empty = await alice.post('/api/v1/webhooks', { url: PUBLIC_URL, events: [] });
    expect(empty.status).toBe(400);
    const missing = await alice.post('/api/v1/webhooks', { url: PUBLIC_URL });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.errors[0].path).toEqual(['events']);
  });

  it('accepts every catalog event, and `test`', async () => {
    const all = ['task_completed', 'task_deferred', 'task_created', 'training_logged', 'training_updated', 'checklist_completed', 'cardio_logged',
      'water_logged', 'meditation_logged', 'day_completed', 'minimum_mode_toggled', 'achievement_unlocked', 'level_up', 'streak_updated',
      'friend_added', 'message_received', 'brain_form_submitted', 'habit_logged', 'habit_streak_updated', 'test'];
    const res = await bob.post('/api/v1/webhooks', { url: PUBLIC_URL, events: [...all, 'test'] });
    expect(res.status).toBe(201);
    expect(res.body.data.events).toEqual(all);
    await bob.delete(`/api/v1/webhooks/${res.body.data.id}`);
  });

  it.each([
    'https://localhost/hook',
    'https://127.0.0.1/hook',
    'https://127.1/hook',
    'https://2130706433/hook',
    'https://0x7f.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://172.20.0.1/hook',
    'https://192.168.0.10:8443/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.1.1/hook',
    'https://0.0.0.0/hook',
    'https://224.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:169.254.169.254]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00::1]/hook',
  ])('refuses the non-public address of %s (400)', async (url) => {
    expectRefused(await alice.post('/api/v1/webhooks', { url, events: ['task_created'] }), ['url'], 'webhook_url_address');
  });

  it('refuses a host name that resolves to a loopback or private address', async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    const names = ['localhost'];
    if (addresses.length && addresses.some((a) => !isPublicAddress(a.address))) names.push(name);
    for (const host of names) {
      const res = await alice.post('/api/v1/webhooks', { url: `https://${host}:8443/hook`, events: ['task_created'] });
      expectRefused(res, ['url'], 'webhook_url_address');
      expect(res.body.error.message).toMatch(/not a public address/);
    }
  });

  it('refuses the same addresses on update, and changes nothing', async () => {
    expectRefused(await alice.put(`/api/v1/webhooks/${aliceHook.id}`, { url: 'https://169.254.169.254/' }), ['url'], 'webhook_url_address');
    expectRefused(await alice.put(`/api/v1/webhooks/${aliceHook.id}`, { url: 'http://93.184.216.34/' }), ['url'], 'webhook_url');
    expectRefused(await alice.put(`/api/v1/webhooks/${aliceHook.id}`, { events: ['nope'] }), ['events', 0], 'webhook_event');
    const list = await alice.get('/api/v1/webhooks');
    expect(list.body.data[0]).toMatchObject({ url: PUBLIC_URL, events: ['task_created', 'task_completed'], active: true });
  });
});

describe('update', () => {
  it('changes url, events and active, each alone', async () => {
    const created = (await bob.post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['task_created'] })).body.data;
    const url = await bob.put(`/api/v1/webhooks/${created.id}`, { url: 'https://93.184.216.35/new' });
    expect(url.status).toBe(200);
    expect(url.body.data).toMatchObject({ url: 'https://93.184.216.35/new', events: ['task_created'], active: true, secretPrefix: created.secretPrefix });
    const events = await bob.put(`/api/v1/webhooks/${created.id}`, { events: ['day_completed', 'test'] });
    expect(events.body.data).toMatchObject({ url: 'https://93.184.216.35/new', events: ['day_completed', 'test'] });
    const paused = await bob.put(`/api/v1/webhooks/${created.id}`, { active: false });
    expect(paused.body.data.active).toBe(false);
    expect(paused.body.data).not.toHaveProperty('secret');
    // REST drops a null argument (absent = untouched); GraphQL refuses an explicit null.
    const nulled = await bob.graphql(`mutation($id: UUID!) { updateWebhook(webhookId: $id, active: null) { id } }`, { id: created.id });
    expect(nulled.body.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    expect((await bob.patch(`/api/v1/webhooks/${created.id}`, { active: true })).status).toBe(405);
    await bob.delete(`/api/v1/webhooks/${created.id}`);
  });
});

describe('plans', () => {
  it('answers 403 SUBSCRIPTION_REQUIRED on every route for a free plan, through REST and GraphQL', async () => {
    const routes = [
      free.get('/api/v1/webhooks'),
      free.post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['task_created'] }),
      free.put(`/api/v1/webhooks/${aliceHook.id}`, { active: false }),
      free.delete(`/api/v1/webhooks/${aliceHook.id}`),
      free.get(`/api/v1/webhooks/${aliceHook.id}/deliveries`),
      free.post(`/api/v1/webhooks/${aliceHook.id}/test`),
    ];
    for (const res of await Promise.all(routes)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('SUBSCRIPTION_REQUIRED');
    }
    const gql = await free.graphql('{ webhooks { items { id } } }');
    expect(gql.body.errors?.[0].extensions).toMatchObject({ code: 'SUBSCRIPTION_REQUIRED', status: 403 });
  });

  it('refuses a lapsed plan, and needs a session', async () => {
    const lapsed = await signUp(app.url);
    await setPlan(app.databaseUrl, lapsed.id, 'pro', new Date(Date.now() - 1000));
    expect((await lapsed.client.get('/api/v1/webhooks')).status).toBe(403);
    expect((await alice.withoutCookie().get('/api/v1/webhooks')).status).toBe(401);
  });
});

describe('isolation', () => {
  const notFound = (res: { status: number; body: any }) => {
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  };

  it("answers 404 for another user's webhook on every REST route, like a missing one", async () => {
    for (const id of [aliceHook.id, MISSING_ID]) {
      notFound(await bob.put(`/api/v1/webhooks/${id}`, { active: false }));
      notFound(await bob.put(`/api/v1/webhooks/${id}`, { url: 'https://93.184.216.36/stolen' }));
      notFound(await bob.delete(`/api/v1/webhooks/${id}`));
      notFound(await bob.get(`/api/v1/webhooks/${id}/deliveries`));
      notFound(await bob.post(`/api/v1/webhooks/${id}/test`));
    }
    expect((await bob.get('/api/v1/webhooks')).body.data.map((w: any) => w.id)).not.toContain(aliceHook.id);
    const mine = await alice.get('/api/v1/webhooks');
    expect(mine.body.data[0]).toMatchObject({ id: aliceHook.id, url: PUBLIC_URL, active: true });
  });

  it("answers NOT_FOUND for another user's webhook through GraphQL", async () => {
    const ops = [
      [`mutation($id: UUID!) { updateWebhook(webhookId: $id, active: false) { id } }`],
      [`mutation($id: UUID!) { deleteWebhook(webhookId: $id) { id } }`],
      [`query($id: UUID!) { webhookDeliveries(webhookId: $id) { items { id } } }`],
      [`mutation($id: UUID!) { testWebhook(webhookId: $id) { sent } }`],
    ];
    for (const [query] of ops) {
      const res = await bob.graphql(query!, { id: aliceHook.id });
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
    const list = await bob.graphql('{ webhooks { items { id } } }');
    expect(list.body.data.webhooks.items.map((w: any) => w.id)).not.toContain(aliceHook.id);
    expect((await alice.get('/api/v1/webhooks')).body.data[0].active).toBe(true);
  });

  it('refuses a malformed id with 400', async () => {
    expect((await alice.get('/api/v1/webhooks/not-a-uuid/deliveries')).status).toBe(400);
  });
});
