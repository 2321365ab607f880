import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { expectGraphQLError, expectValidation } from '../planning/planning.test-helpers.js';

let app: TestApp;

beforeAll(async () => {
  app = await sharedTestApp();
});

const DEFAULTS = {
  weeklySplitLabels: ['Push', 'Pull', 'Legs', 'Arms'],
  wakeTime: '07:00',
  inBedTime: '22:30',
  lightsOutTime: '23:00',
  stressWeekWakeTime: '07:00',
  stressWeekInBedTime: '22:00',
  stressWeekLightsOutTime: '22:30',
  timezone: 'UTC',
};
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

async function settingsRows(userId: string): Promise<number> {
  const rows = await app.server.orm.em.fork().getConnection().execute('select count(*)::int as n from user_settings where user_id = ?', [userId]);
  return rows[0].n;
}

describe('GET /settings', () => {
  it('answers the defaults before anything is saved, keeping one row with a stable id', async () => {
    const { client, id } = await signUp(app.url);
    const res = await client.get('/api/v1/settings');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject(DEFAULTS);
    for (const key of ['wakeTime', 'inBedTime', 'lightsOutTime', 'stressWeekWakeTime', 'stressWeekInBedTime', 'stressWeekLightsOutTime']) {
      expect(res.body.data[key]).toMatch(HH_MM);
    }
    expect(await settingsRows(id)).toBe(1);
    const again = await client.get('/api/v1/settings');
    expect(again.body.data.id).toBe(res.body.data.id);
    const gql = await client.graphql('{ settings { id weeklySplitLabels wakeTime timezone } }');
    expect(gql.body.data.settings).toEqual({ id: res.body.data.id, weeklySplitLabels: DEFAULTS.weeklySplitLabels, wakeTime: '07:00', timezone: 'UTC' });
    expect(await settingsRows(id)).toBe(1);
  });

  it('needs a session', async () => {
    const res = await app.http.get('/api/v1/settings');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('PATCH /settings', () => {
  it('saves what is sent, keeps the rest, and is read back', async () => {
    const { client, id } = await signUp(app.url);
    const res = await client.patch('/api/v1/settings', { wakeTime: '06:15', timezone: 'Europe/Paris', weeklySplitLabels: ['Upper', 'Lower'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ ...DEFAULTS, wakeTime: '06:15', timezone: 'Europe/Paris', weeklySplitLabels: ['Upper', 'Lower'] });
    const second = await client.patch('/api/v1/settings', { stressWeekLightsOutTime: '21:00', lightsOutTime: '00:00', inBedTime: '23:59' });
    expect(second.body.data).toMatchObject({ wakeTime: '06:15', stressWeekLightsOutTime: '21:00', lightsOutTime: '00:00', inBedTime: '23:59', timezone: 'Europe/Paris' });
    const read = await client.get('/api/v1/settings');
    expect(read.body.data).toEqual(second.body.data);
    expect(await settingsRows(id)).toBe(1);
    // An empty patch changes nothing.
    expect((await client.patch('/api/v1/settings', {})).body.data).toEqual(second.body.data);
  });

  it('refuses times that are not HH:MM (400 naming the field)', async () => {
    const { client } = await signUp(app.url);
    for (const value of ['7:00', '24:00', '12:60', '12:5', 'noon', '07:00:00', ' 07:00', '', 700, ['07:00']]) {
      for (const field of ['wakeTime', 'stressWeekInBedTime']) {
        expectValidation(await client.patch('/api/v1/settings', { [field]: value }), field);
      }
    }
    expect((await client.get('/api/v1/settings')).body.data).toMatchObject(DEFAULTS);
  });

  it('refuses a time zone that is not an IANA name', async () => {
    const { client } = await signUp(app.url);
    for (const timezone of ['Mars/Olympus', 'UTC+2', '', 'x'.repeat(65), 3, ['UTC']]) {
      expectValidation(await client.patch('/api/v1/settings', { timezone }), 'timezone');
    }
    for (const timezone of ['America/New_York', 'Asia/Kolkata', 'Etc/GMT+12', 'Pacific/Kiritimati']) {
      const res = await client.patch('/api/v1/settings', { timezone });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.timezone).toBe(timezone);
    }
  });

  it('refuses a bad split label list: empty, blank labels, too long, too many, not strings', async () => {
    const { client } = await signUp(app.url);
    const bad = [[], [''], ['x'.repeat(51)], Array.from({ length: 15 }, (_, i) => `Day ${i}`), [1, 2], [['Push']], [{ a: 1 }]];
    for (const weeklySplitLabels of bad) {
      expectValidation(await client.patch('/api/v1/settings', { weeklySplitLabels }), 'weeklySplitLabels');
    }
    // A lone string is not a list: REST checks JSON types strictly (GraphQL would coerce it).
    expectValidation(await client.patch('/api/v1/settings', { weeklySplitLabels: 'Push' }), 'weeklySplitLabels');
    const max = Array.from({ length: 14 }, (_, i) => `Day ${i}`);
    expect((await client.patch('/api/v1/settings', { weeklySplitLabels: max })).body.data.weeklySplitLabels).toEqual(max);
  });

  it('two first saves racing each other both succeed and leave one row', async () => {
    const { client, id } = await signUp(app.url);
    const results = await Promise.all([
      client.patch('/api/v1/settings', { wakeTime: '05:00' }),
      client.patch('/api/v1/settings', { timezone: 'Asia/Tokyo' }),
      client.patch('/api/v1/settings', { inBedTime: '21:00' }),
    ]);
    expect(results.map((r) => r.status), results.map((r) => r.text).join('\n')).toEqual([200, 200, 200]);
    expect(await settingsRows(id)).toBe(1);
    // Each partial update kept the fields of the others.
    expect((await client.get('/api/v1/settings')).body.data).toMatchObject({ wakeTime: '05:00', timezone: 'Asia/Tokyo', inBedTime: '21:00' });
  });

  it('works through GraphQL with the same validation', async () => {
    const { client } = await signUp(app.url);
    const m = 'mutation($w: String, $tz: String) { updateSettings(wakeTime: $w, timezone: $tz) { wakeTime timezone } }';
    const ok = await client.graphql(m, { w: '05:30', tz: 'America/Sao_Paulo' });
    expect(ok.body.data.updateSettings).toEqual({ wakeTime: '05:30', timezone: 'America/Sao_Paulo' });
    expectGraphQLError(await client.graphql(m, { w: '5:30' }), 'VALIDATION_ERROR');
    expectGraphQLError(await client.graphql(m, { tz: 'Nowhere/Land' }), 'VALIDATION_ERROR');
  });
});
