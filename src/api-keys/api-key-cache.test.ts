import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { sql } from '../../test/support/db.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { startServer, type RunningServer } from '../app/server.js';
import { createKey, expectUnauthorized, KeyClient, proUser, setPlan } from '../public-api/public-api.test-helpers.js';

/**
 * API-key lookups are cached per instance (issue 18), yet a revoke, a rotation, a deletion or a plan
 * change made on one instance (or straight in the database) refuses the key on the very next request to
 * another instance: the database NOTIFYs every instance, which drops the owner's cached keys.
 *
 * Two services on one database: A takes the account changes, B serves the keyed requests. Before each
 * change the test proves B answers the key from its cache (no key lookup statement), so a missing
 * invalidation would let B accept the key.
 */
let a: TestApp;
let b: RunningServer;
beforeAll(async () => {
  a = await startTestApp();
  const config = loadConfig({ PORT: '0', DATA_DIR: a.dataDir, FILE_UPLOAD_DIR: `${a.dataDir}/uploads`, LOG_LEVEL: 'silent', DATABASE_URL: a.databaseUrl });
  b = await startServer(config, { logger: createLogger('silent') });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const probe = (api: KeyClient) => api.get('/exercises/search?q=zzzz-none');

/** Requests on B until one is answered without reading the key (B's cache holds it); that answer is 200. */
async function cachedOnB(key: string): Promise<KeyClient> {
  const api = new KeyClient(b.url, key);
  await expect
    .poll(
      async () => {
        const recorder = recordStatements();
        try {
          const res = await probe(api);
          expect(res.status, res.text).toBe(200);
        } finally {
          recorder.stop();
        }
        return recorder.statements.filter((s) => /from api_keys/.test(s)).length;
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBe(0);
  return api;
}

async function keyedUser() {
  const user = await proUser(a);
  const created = await createKey(user.client);
  return { ...user, key: created.key, keyId: created.id };
}

describe('API-key cache across instances', () => {
  it('a revoke on A refuses the key on B at once', async () => {
    const user = await keyedUser();
    const api = await cachedOnB(user.key);
    const res = await user.client.post(`/api/v1/api-keys/${user.keyId}/revoke`);
    expect(res.status, res.text).toBe(200);
    const refused = await probe(api);
    expectUnauthorized(refused);
    expect(refused.body.error.details.reason).toBe('revoked');
  });

  it('a rotation on A refuses the old key on B at once, and B accepts the new one', async () => {
    const user = await keyedUser();
    const api = await cachedOnB(user.key);
    const rotated = await user.client.post(`/api/v1/api-keys/${user.keyId}/rotate`);
    expect(rotated.status, rotated.text).toBe(200);
    expectUnauthorized(await probe(api));
    expect((await probe(new KeyClient(b.url, rotated.body.data.key))).status).toBe(200);
  });

  it('a deleted key is refused on B at once', async () => {
    const user = await keyedUser();
    const api = await cachedOnB(user.key);
    const res = await user.client.delete(`/api/v1/api-keys/${user.keyId}`);
    expect(res.status, res.text).toBe(200);
    expect((await probe(api)).body.error.details.reason).toBe('unknown');
  });

  it('a plan change (straight in the database, as the admin CLI does) takes effect on B at once, both ways', async () => {
    const user = await keyedUser();
    let api = await cachedOnB(user.key);
    await setPlan(a.databaseUrl, user.id, 'free');
    const lapsed = await probe(api);
    expectUnauthorized(lapsed);
    expect(lapsed.body.error.details.reason).toBe('plan_lapsed');
    await setPlan(a.databaseUrl, user.id, 'pro');
    expect((await probe(api)).status).toBe(200);
    api = await cachedOnB(user.key);
    // A plan end moved into the past.
    await setPlan(a.databaseUrl, user.id, 'pro', new Date(Date.now() - 1000));
    expect((await probe(api)).body.error?.details?.reason).toBe('plan_lapsed');
  });

  it('a plan ending while cached is refused without any notification (expiry is checked on every request)', async () => {
    const user = await keyedUser();
    await setPlan(a.databaseUrl, user.id, 'pro', new Date(Date.now() + 1500));
    const api = await cachedOnB(user.key);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await probe(api)).body.error?.details?.reason).toBe('plan_lapsed');
  });

  it('a time zone change on A moves the Public API\'s today on B at once', async () => {
    const user = await keyedUser();
    const api = await cachedOnB(user.key);
    // A zone whose date differs from UTC's now (UTC+14 from 10:00 UTC, UTC-11 before 11:00 UTC), so a
    // stale cached time zone would write on another day.
    const dateIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const zone = dateIn('Pacific/Kiritimati') !== dateIn('UTC') ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    expect(dateIn(zone)).not.toBe(dateIn('UTC'));
    const changed = await user.client.patch('/api/v1/settings', { timezone: zone });
    expect(changed.status, changed.text).toBe(200);
    const res = await api.post('/water', { volume: 200 });
    expect(res.status, res.text).toBe(200);
    const [row] = await sql(a.databaseUrl, `select to_char(d.date, 'YYYY-MM-DD') as date from water_intakes w join days d on d.id = w.day_id where w.id = $1`, [res.body.data.id]);
    expect(row!.date).toBe(dateIn(zone));
  });
});
