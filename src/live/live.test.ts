import { print } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DayChangedDocument, GamificationStatsChangedDocument, type GamificationStatsChangedSubscription } from '../../test/generated/graphql-client.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { startServer, type RunningServer } from '../app/server.js';
import { Task } from '../tasks/task.entity.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { eventually, liveClient, upgradeStatus, type LiveClient } from '../../test/support/live-client.js';

// The checked-in typed documents (test/graphql/live.graphql), as a client generated from the schema sends them.
const DAY = print(DayChangedDocument);
const MINE = `subscription { myChanges { entity id kind committedAt } }`;
const MONDAY = '2026-11-23';

/** A second instance of the service on the same database (and Redis, if given): what a load balancer spreads over. */
async function secondInstance(app: TestApp, env: Record<string, string>): Promise<RunningServer> {
  const config = loadConfig({ PORT: '0', DATA_DIR: app.dataDir, FILE_UPLOAD_DIR: `${app.dataDir}/uploads`, LOG_LEVEL: 'silent', DATABASE_URL: app.databaseUrl, ...env });
  return startServer(config, { logger: createLogger('silent') });
}

const messageOf = (error: unknown) => (Array.isArray(error) ? String(error[0]?.message) : JSON.stringify(error, Object.getOwnPropertyNames(error ?? {})));
/** Whether the day has a ticked item (each test ticks GYM on a day with nothing else ticked). */
const checked = (result: any, _key: 'GYM') => result?.data?.dayChanged?.checklist?.some((i: any) => i.completed) ?? false;

for (const fanOut of ['PostgreSQL LISTEN/NOTIFY', 'Redis pub/sub'] as const) {
  describe(`live updates across two instances over ${fanOut}`, () => {
    const env: Record<string, string> = {
      LIVE_SESSION_CHECK_MS: '200',
      LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: '3',
      LIVE_MAX_SOCKETS_PER_USER: '2',
      ...(fanOut === 'Redis pub/sub' ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {}),
    };
    let a: TestApp;
    let b: RunningServer;
    let anna: { client: HttpClient; id: string };
    let ben: { client: HttpClient; id: string };
    let annaDays: string[];
    const sockets: LiveClient[] = [];
    const open = (url: string, cookie: string | undefined, options?: { origin?: string }) => {
      const socket = liveClient(url, cookie, options);
      sockets.push(socket);
      return socket;
    };

    beforeAll(async () => {
      a = await startTestApp(env);
      b = await secondInstance(a, env);
      anna = await signUp(a.url);
      ben = await signUp(a.url);
      annaDays = await weekDayIds(anna.client, MONDAY);
      await weekDayIds(ben.client, MONDAY);
    });

    // Each test's sockets end with it: the per-person socket limit is 2 here.
    afterEach(async () => {
      await Promise.all(sockets.splice(0).map((s) => s.dispose()));
      await new Promise((r) => setTimeout(r, 50));
    });

    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('a toggle through REST on instance A reaches the same person on instance B within a second, and never another person', async () => {
      const annaOnB = open(b.url, anna.client.cookie);
      const benOnB = open(b.url, ben.client.cookie);
      const day = annaOnB.follow(DAY, { dayId: annaDays[0] });
      const annaFeed = annaOnB.follow(MINE);
      const benFeed = benOnB.follow(MINE);
      // The first event is the current state: nothing ticked yet.
      await day.waitFor((r) => Array.isArray(r.data?.dayChanged?.checklist));
      await annaFeed.waitFor(() => true);
      await benFeed.waitFor(() => true);
      expect(checked(day.results[0], 'GYM')).toBe(false);

      const sent = Date.now();
      const toggle = await anna.client.post(`/api/v1/checklist/${annaDays[0]}/toggle/GYM`, {});
      expect(toggle.status).toBe(200);
      await day.waitFor((r) => checked(r, 'GYM'), 1000);
      expect(Date.now() - sent).toBeLessThan(1000);
      const change = await annaFeed.waitFor((r) => r.data?.myChanges?.some((c: any) => c.entity === 'ChecklistItem'), 1000);
      expect(change.data!.myChanges.find((c: any) => c.entity === 'ChecklistItem')).toMatchObject({ kind: 'updated', committedAt: expect.any(String) });

      await new Promise((r) => setTimeout(r, 300));
      expect(benFeed.results.every((r) => (r.data?.myChanges ?? []).length === 0)).toBe(true);
    });

    it('a rolled-back write sends nothing; the same write committed does', async () => {
      const feed = open(b.url, anna.client.cookie).follow(MINE);
      await feed.waitFor(() => true);
      const em = a.server.orm.em.fork();
      const write = (title: string) => async (trx: typeof em) => {
        trx.create(Task, { userId: anna.id, title, timebox: 30 } as never);
        await trx.flush();
      };
      await expect(em.transactional(async (trx) => {
        await write('rolled back')(trx);
        throw new Error('changed my mind');
      })).rejects.toThrow('changed my mind');
      await new Promise((r) => setTimeout(r, 500));
      expect(feed.results.flatMap((r) => r.data?.myChanges ?? []).filter((c: any) => c.entity === 'Task')).toEqual([]);

      await em.fork().transactional(write('kept'));
      await feed.waitFor((r) => r.data?.myChanges?.some((c: any) => c.entity === 'Task' && c.kind === 'created'), 1000);
    });

    it('changes to one record arrive in the order they were made', async () => {
      const day = open(b.url, anna.client.cookie).follow(DAY, { dayId: annaDays[1] });
      await day.waitFor((r) => Array.isArray(r.data?.dayChanged?.checklist));
      for (let i = 0; i < 5; i++) expect((await anna.client.post(`/api/v1/checklist/${annaDays[1]}/toggle/GYM`, {})).status).toBe(200);
      // Five toggles: ticked, unticked, ticked, unticked, ticked. Whatever was coalesced, the last state seen is the last written.
      await day.waitFor((r) => checked(r, 'GYM'), 2000);
      await new Promise((r) => setTimeout(r, 300));
      expect(checked(day.results.at(-1), 'GYM')).toBe(true);
    });

    it("another person's day is NOT_FOUND, exactly like a missing one, and the subscription ends", async () => {
      const benDays = await weekDayIds(ben.client, MONDAY);
      const socket = open(b.url, anna.client.cookie);
      const foreign = socket.follow(DAY, { dayId: benDays[0] });
      const missing = socket.follow(DAY, { dayId: '00000000-0000-4000-8000-000000000000' });
      const first = await foreign.waitFor(() => true);
      const second = await missing.waitFor(() => true);
      expect(first.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(second.errors?.[0]?.extensions).toEqual(first.errors?.[0]?.extensions);
      await eventually(() => (foreign.completed ? true : undefined), 2000, 'the subscription to end');
    });

    it('refuses a page of another origin, a missing session and a made-up cookie at the upgrade', async () => {
      expect(await upgradeStatus(b.url, { cookie: anna.client.cookie!, origin: 'https://evil.example' })).toBe(403);
      expect(await upgradeStatus(b.url, {})).toBe(401);
      expect(await upgradeStatus(b.url, { cookie: 'lp_session=forged.token.here' })).toBe(401);
      expect(await upgradeStatus(b.url, { cookie: anna.client.cookie!, origin: b.url })).toBe(101);
    });

    it('runs only subscriptions, within the operation limits and the per-socket limit', async () => {
      const socket = open(b.url, anna.client.cookie);
      const query = socket.follow(`query { me { id } }`);
      await eventually(() => (query.error ? true : undefined), 2000, 'the query to be refused');
      expect(messageOf(query.error)).toContain('Only subscriptions');
      const deep = socket.follow(`subscription { dayChanged(dayId: "${annaDays[0]}") { checklist { required } perimeterTasks { id } ${'a: id '.repeat(20)} } }`);
      await eventually(() => (deep.error ? true : undefined), 2000, 'the alias bomb to be refused');
      const running = [0, 1, 2].map(() => socket.follow(MINE));
      await Promise.all(running.map((s) => s.waitFor(() => true).catch(() => { throw new Error(messageOf(s.error) + JSON.stringify(socket.closes)); })));
      const fourth = socket.follow(MINE);
      await eventually(() => (fourth.error ? true : undefined), 2000, 'the fourth subscription to be refused');
      expect(messageOf(fourth.error)).toContain('At most 3 subscriptions');
    });

    it('holds each person to their socket limit', async () => {
      const carl = await signUp(a.url);
      const first = open(b.url, carl.client.cookie);
      const second = open(b.url, carl.client.cookie);
      await Promise.all([first.follow(MINE).waitFor(() => true), second.follow(MINE).waitFor(() => true)]);
      const third = open(b.url, carl.client.cookie);
      third.follow(MINE);
      expect((await third.waitClosed()).code).toBe(1013);
    });

    it('logout closes the socket of that session, and its cookie opens no other', async () => {
      const dora = await signUp(a.url);
      const socket = open(b.url, dora.client.cookie);
      await socket.follow(MINE).waitFor(() => true);
      const revoked = dora.client.cookie!;
      expect((await dora.client.post('/api/v1/auth/logout', {})).status).toBe(200);
      expect((await socket.waitClosed(2000)).code).toBe(4403);
      // The ended session's cookie opens no new socket either.
      expect(await upgradeStatus(b.url, { cookie: revoked })).toBe(401);
    });
  });
}

describe('live updates: the event stream and shutdown', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ LIVE_KEEPALIVE_MS: '200' });
  });
  afterAll(async () => app?.close());

  it('GET /api/v1/events/stream sends the same feed as Server-Sent Events, only to its owner', async () => {
    const anna = await signUp(app.url);
    const ben = await signUp(app.url);
    const [dayId] = await weekDayIds(anna.client, MONDAY);
    expect((await fetch(`${app.url}/api/v1/events/stream`)).status).toBe(401);
    const read = async (client: HttpClient) => {
      const controller = new AbortController();
      const res = await fetch(`${app.url}/api/v1/events/stream`, { headers: { cookie: client.cookie! }, signal: controller.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      let text = '';
      const reader = res.body!.getReader();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          text += new TextDecoder().decode(value);
        }
      })();
      return { text: () => text, stop: () => controller.abort() };
    };
    const annaStream = await read(anna.client);
    const benStream = await read(ben.client);
    await eventually(() => (annaStream.text().includes(': live') ? true : undefined), 2000, 'the stream to open');
    expect((await anna.client.post(`/api/v1/checklist/${dayId}/toggle/GYM`, {})).status).toBe(200);
    // The tick's own event: on a busy machine the day's creation (items created) may still be arriving.
    const isTick = (e: string) => e.includes('"ChecklistItem"') && e.includes('"updated"');
    const event = await eventually(() => annaStream.text().split('\n\n').find(isTick), 2000, 'the change event');
    expect(event.startsWith('event: change\ndata: ')).toBe(true);
    expect(JSON.parse(event.slice('event: change\ndata: '.length))).toMatchObject({ entity: 'ChecklistItem', kind: 'updated' });
    await eventually(() => (annaStream.text().includes(': keep-alive') ? true : undefined), 2000, 'a keep-alive comment');
    expect(benStream.text()).not.toContain('event: change');
    annaStream.stop();
    benStream.stop();
    await eventually(() => (app.server.deps.live!.openConnections === 0 ? true : undefined), 2000, 'the streams to be closed');
  });

  it('the gamification profile follows the XP a toggle grants, written by the reactor in the same transaction', async () => {
    const user = await signUp(app.url);
    const [dayId] = await weekDayIds(user.client, MONDAY);
    const socket = liveClient(app.url, user.client.cookie);
    const stats = socket.follow<GamificationStatsChangedSubscription>(print(GamificationStatsChangedDocument));
    const before = (await stats.waitFor((r) => r.data?.gamificationStatsChanged !== undefined)).data!.gamificationStatsChanged.xp;
    expect((await user.client.post(`/api/v1/checklist/${dayId}/toggle/GYM`, {})).status).toBe(200);
    await stats.waitFor((r) => (r.data?.gamificationStatsChanged.xp ?? 0) > before, 2000);
    await socket.dispose();
  });

  it('counts socket opens against the global rate limit per person: a loop of upgrades is refused 429', async () => {
    const limited = await startTestApp({ RATE_LIMIT_MAX: '6' });
    try {
      const user = await signUp(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push(await upgradeStatus(limited.url, { cookie: user.client.cookie! }));
      expect(statuses.slice(0, 6)).toEqual([101, 101, 101, 101, 101, 101]);
      expect(statuses.slice(6)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('refuses a subscription sent over HTTP, naming the WebSocket', async () => {
    const user = await signUp(app.url);
    const res = await user.client.graphql(MINE);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toContain('WebSocket');
  });

  it('closes open sockets with 1001 when the service stops', async () => {
    const other = await startTestApp();
    const user = await signUp(other.url);
    const socket = liveClient(other.url, user.client.cookie);
    await socket.follow(MINE).waitFor(() => true);
    await other.close();
    expect((await socket.waitClosed()).code).toBe(1001);
    await socket.dispose();
  });
});
