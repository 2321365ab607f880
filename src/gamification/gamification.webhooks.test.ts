import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import type { ServiceProcess } from '../../test/support/service-process.js';
import { generateWeek } from '../../test/support/fixtures.js';
import { mondayOf, todayIn } from '../core/dates.js';
import { createTestPki, createWebhook, freshDatabase, Receiver, serviceEnv, setPlan, startService, tempDir, type TestPki } from '../webhooks/webhooks.test-helpers.js';
import { achievementId } from './achievement-catalog.seed.js';
import { completeDay, earn } from './gamification.test-helpers.js';

/** The gamification events reach a subscribed endpoint through the existing webhook engine (a service process). */
let pki: TestPki;
let receiver: Receiver;
let db: { url: string; drop(): Promise<void> };
let data: { path: string; remove(): Promise<void> };
let service: ServiceProcess;
let alice: HttpClient;

beforeAll(async () => {
  pki = await createTestPki();
  receiver = await Receiver.start(pki);
  db = await freshDatabase();
  data = await tempDir();
  service = await startService(serviceEnv(pki, db.url, data.path));
  const signed = await signUp(service.url);
  alice = signed.client;
  await setPlan(db.url, signed.id, 'pro');
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
  await db?.drop();
  await data?.remove();
});

describe('gamification webhooks', () => {
  it('level_up, achievement_unlocked and streak_updated are delivered with exactly the catalog fields', async () => {
    const path = receiver.endpoint();
    await createWebhook(alice, receiver.url + path, ['level_up', 'achievement_unlocked', 'streak_updated']);
    await earn(alice, 120); // level 2, first_task
    const today = todayIn('UTC');
    const week = await generateWeek(alice, mondayOf(today));
    await completeDay(alice, week.days.find((d: any) => d.date === today).id); // checklist streak 1

    // first_task, level_up 2, first_checklist_item, first_day_completed, streak_updated 1
    const received = await receiver.waitFor(path, 5, 20_000);
    const bodies = received.map((r) => JSON.parse(r.rawBody.toString('utf8')));
    for (const r of received) expect(r.headers['x-svc-event']).toBe(JSON.parse(r.rawBody.toString('utf8')).event);
    const of = (event: string) => bodies.filter((b) => b.event === event).map((b) => b.data);

    expect(of('level_up')).toEqual([{ newLevel: 2, leveledUpAt: expect.any(String) }]);
    expect(of('streak_updated')).toEqual([{ streakType: 'checklist', currentStreak: 1, updatedAt: expect.any(String) }]);
    const unlocked = of('achievement_unlocked');
    expect(unlocked.map((d) => d.achievementKey).sort()).toEqual(['first_checklist_item', 'first_day_completed', 'first_task']);
    for (const d of unlocked) {
      expect(Object.keys(d).sort()).toEqual(['achievementId', 'achievementKey', 'unlockedAt']);
      expect(d.achievementId).toBe(achievementId(d.achievementKey));
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at(path)).toHaveLength(5); // each once
  });
});
