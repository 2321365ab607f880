import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { DayService } from '../planning/day.service.js';
import { Day } from '../planning/day.entity.js';
import { ChecklistItem } from '../planning/checklist-item.entity.js';
import { ChecklistKey } from '../planning/checklist-key.js';
import { ISO, MISSING_ID, gqlCode, outboxEvents, weekDays } from '../training/activity.test-helpers.js';
import { createWellnessLoaders } from './wellness.loaders.js';
import { MeditationService, MoodService, SleepService, StepsService, WaterService } from './wellness.service.js';
import { WaterIntake } from './water-intake.entity.js';
import { recordStatements } from '../../test/support/statement-counter.js';

let app: TestApp;
let client: HttpClient;
beforeAll(async () => {
  app = await startTestApp();
  ({ client } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

const LOG_WATER = `mutation($dayId: UUID!, $volume: Float!, $time: DateTimeISO, $notes: String) {
  logWater(dayId: $dayId, volume: $volume, time: $time, notes: $notes) { id dayId volume time notes } }`;

describe('services used by the Public API (today)', () => {
  it('WaterService.log writes the intake and water_logged { intakeId, amount, loggedAt }', async () => {
    const { id: userId } = await signUp(app.url);
    const em = app.server.orm.em.fork();
    const today = await new DayService(em).today(userId);
    const intake = await new WaterService(em).log(userId, { dayId: today.id, volume: 500, notes: 'glass' });
    expect(intake).toMatchObject({ dayId: today.id, volume: 500, notes: 'glass', userId });
    expect(Math.abs(intake.time.getTime() - Date.now())).toBeLessThan(5000);
    const stored = await app.server.orm.em.fork().findOneOrFail(WaterIntake, { id: intake.id });
    expect(stored.volume).toBe(500);
    const events = await outboxEvents(app, userId);
    expect(events.map((e) => e.event)).toEqual(['water_logged']);
    expect(Object.keys(events[0]!.data).sort()).toEqual(['amount', 'intakeId', 'loggedAt']);
    expect(events[0]!.data).toMatchObject({ intakeId: intake.id, amount: 500 });
    expect(events[0]!.data.loggedAt).toMatch(ISO);

    const timed = await new WaterService(app.server.orm.em.fork()).log(userId, { dayId: today.id, volume: 250, time: '2027-01-01T08:00:00Z' });
    expect(timed.time.toISOString()).toBe('2027-01-01T08:00:00.000Z');
  });

  it('MeditationService.log records meditation_logged { sessionId, duration, loggedAt }', async () => {
    const { id: userId } = await signUp(app.url);
    const em = app.server.orm.em.fork();
    const today = await new DayService(em).today(userId);
    const session = await new MeditationService(em).log(userId, { dayId: today.id, duration: 12, type: 'breathing' });
    expect(session).toMatchObject({ duration: 12, type: 'breathing', dayId: today.id });
    const events = await outboxEvents(app, userId);
    expect(events.map((e) => e.event)).toEqual(['meditation_logged', 'checklist_completed']);
    expect(Object.keys(events[0]!.data).sort()).toEqual(['duration', 'loggedAt', 'sessionId']);
    expect(events[0]!.data).toMatchObject({ sessionId: session.id, duration: 12 });
    expect(events[1]!.data).toEqual({ dayId: today.id, itemKey: 'MEDITATION', completedAt: expect.any(String) });
  });

  it("MeditationService.log ticks the day's MEDITATION item with the minutes, once; a later session leaves it as it is", async () => {
    const { id: userId } = await signUp(app.url);
    const today = await new DayService(app.server.orm.em.fork()).today(userId);
    const item = async () => (await app.server.orm.em.fork().findOneOrFail(ChecklistItem, { dayId: today.id, key: ChecklistKey.MEDITATION }));
    await new MeditationService(app.server.orm.em.fork()).log(userId, { dayId: today.id, duration: 20 });
    expect(await item()).toMatchObject({ completed: true, value: 20 });
    await new MeditationService(app.server.orm.em.fork()).log(userId, { dayId: today.id, duration: 5 });
    expect(await item()).toMatchObject({ completed: true, value: 20 });
    expect((await outboxEvents(app, userId, 'checklist_completed')).map((e) => e.data.itemKey)).toEqual(['MEDITATION']);
    expect(await outboxEvents(app, userId, 'meditation_logged')).toHaveLength(2);
  });

  it("StepsService, MoodService and SleepService write their records; mood and sleep set the day's fields", async () => {
    const { id: userId } = await signUp(app.url);
    const em = app.server.orm.em.fork();
    const today = await new DayService(em).today(userId);
    const steps = await new StepsService(em).log(userId, { dayId: today.id, steps: 0 });
    expect(steps).toMatchObject({ steps: 0, dayId: today.id });
    const mood = await new MoodService(em).log(userId, { dayId: today.id, mood: 7, energy: 4, notes: 'ok' });
    expect(mood).toMatchObject({ mood: 7, energy: 4, notes: 'ok' });
    const sleep = await new SleepService(em).log(userId, {
      dayId: today.id,
      duration: 7.5,
      bedtime: '2027-01-01T22:30:00Z',
      wakeTime: '2027-01-02T06:00:00Z',
      quality: 8,
    });
    expect(sleep).toMatchObject({ duration: 7.5, quality: 8 });
    expect(sleep.bedtime?.toISOString()).toBe('2027-01-01T22:30:00.000Z');
    const day = await app.server.orm.em.fork().findOneOrFail(Day, { id: today.id });
    expect(day).toMatchObject({ mood: 7, energy: 4, sleepHours: 7.5 });
    // No events for steps, mood or sleep: the catalog has none.
    expect(await outboxEvents(app, userId)).toEqual([]);
    await expect(
      new SleepService(app.server.orm.em.fork()).log(userId, { dayId: today.id, duration: 7, bedtime: '2027-01-02T06:00:00Z', wakeTime: '2027-01-01T22:00:00Z' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ path: ['wakeTime'] }] } });
  });

  it("refuses another user's day with NotFoundError naming dayId, writing nothing", async () => {
    const { id: alice } = await signUp(app.url);
    const { id: bob } = await signUp(app.url);
    const aliceToday = await new DayService(app.server.orm.em.fork()).today(alice);
    const attempts = [
      () => new WaterService(app.server.orm.em.fork()).log(bob, { dayId: aliceToday.id, volume: 100 }),
      () => new StepsService(app.server.orm.em.fork()).log(bob, { dayId: aliceToday.id, steps: 100 }),
      () => new MeditationService(app.server.orm.em.fork()).log(bob, { dayId: aliceToday.id, duration: 5 }),
      () => new MoodService(app.server.orm.em.fork()).log(bob, { dayId: aliceToday.id, mood: 1, energy: 1 }),
      () => new SleepService(app.server.orm.em.fork()).log(bob, { dayId: aliceToday.id, duration: 1 }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND', details: { field: 'dayId' } });
    expect(await outboxEvents(app, bob)).toEqual([]);
    const day = await app.server.orm.em.fork().findOneOrFail(Day, { id: aliceToday.id });
    expect(day).toMatchObject({ mood: null, energy: null, sleepHours: null });
  });
});

describe('GraphQL logging and day reads', () => {
  it('logs every kind for a day and shows them on GET /days/:dayId and Day fields', async () => {
    const [day] = await weekDays(client);
    const water = await client.graphql(LOG_WATER, { dayId: day, volume: 330, time: '2027-01-04T09:00:00Z', notes: 'can' });
    expect(water.body.errors).toBeUndefined();
    expect(water.body.data.logWater).toMatchObject({ dayId: day, volume: 330, time: '2027-01-04T09:00:00.000Z', notes: 'can' });
    const others = await client.graphql(
      `mutation($d: UUID!) {
        logSteps(dayId: $d, steps: 8000) { steps }
        logMeditation(dayId: $d, duration: 10, type: "body scan") { duration type }
        logMood(dayId: $d, mood: 6, energy: 9) { mood energy }
        logSleep(dayId: $d, duration: 6.5, quality: 5) { duration quality }
      }`,
      { d: day },
    );
    expect(others.body.errors).toBeUndefined();
    const rest = await client.get(`/api/v1/days/${day}`);
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({
      mood: 6,
      energy: 9,
      sleepHours: 6.5,
      waterIntakes: [{ volume: 330, notes: 'can' }],
      stepsEntries: [{ steps: 8000 }],
      meditationSessions: [{ duration: 10, type: 'body scan' }],
      moodEntries: [{ mood: 6, energy: 9 }],
      sleepEntries: [{ duration: 6.5, quality: 5 }],
    });
    const gql = await client.graphql(`query($d: UUID!) { day(dayId: $d) { waterIntakes { volume } sleepEntries { duration } } }`, { d: day });
    expect(gql.body.data.day).toEqual({ waterIntakes: [{ volume: 330 }], sleepEntries: [{ duration: 6.5 }] });
  });

  it.each([
    ['zero water', `logWater(dayId: $d, volume: 0) { id }`],
    ['negative water', `logWater(dayId: $d, volume: -5) { id }`],
    ['negative steps', `logSteps(dayId: $d, steps: -1) { id }`],
    ['zero meditation', `logMeditation(dayId: $d, duration: 0) { id }`],
    ['mood 11', `logMood(dayId: $d, mood: 11, energy: 5) { id }`],
    ['energy 0', `logMood(dayId: $d, mood: 5, energy: 0) { id }`],
    ['zero sleep', `logSleep(dayId: $d, duration: 0) { id }`],
    ['sleep quality 11', `logSleep(dayId: $d, duration: 7, quality: 11) { id }`],
  ])('refuses %s (VALIDATION_ERROR)', async (_label, field) => {
    const [day] = await weekDays(client);
    const res = await client.graphql(`mutation($d: UUID!) { ${field} }`, { d: day });
    expect(gqlCode(res)).toBe('VALIDATION_ERROR');
  });

  it('answers NOT_FOUND for an unknown day and UNAUTHORIZED without a session', async () => {
    const res = await client.graphql(LOG_WATER, { dayId: MISSING_ID, volume: 100 });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', details: { field: 'dayId' } });
    const anon = await client.withoutCookie().graphql(LOG_WATER, { dayId: MISSING_ID, volume: 100 });
    expect(gqlCode(anon)).toBe('UNAUTHORIZED');
  });

  it('loads the water intakes of many days with one query', async () => {
    const { client: own, id: ownId } = await signUp(app.url);
    const week = await weekDays(own);
    await new WaterService(app.server.orm.em.fork()).log(ownId, { dayId: week[0]!, volume: 1 });
    await new WaterService(app.server.orm.em.fork()).log(ownId, { dayId: week[6]!, volume: 2 });
    const em = app.server.orm.em.fork();
    const recorder = recordStatements();
    const loaders = createWellnessLoaders(em);
    const res = await Promise.all(week.map((d) => loaders.waterIntakesByDayId.load(d)));
    expect(res.map((l) => l.map((w) => w.volume))).toEqual([[1], [], [], [], [], [], [2]]);
    recorder.stop();
    const { statements } = recorder;
    expect(statements.filter((sql) => sql.includes('from "water_intakes"'))).toHaveLength(1);
  });
});
