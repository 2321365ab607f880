import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TestApp } from '../../test/support/test-app.js';
import { addDays, todayIn } from '../core/dates.js';
import { generateWeeks, runNight, seeded, setDays } from '../insights/insights.test-helpers.js';
import { callError, callOk, connectedUser, connectWithOAuth, startConnectorApp, TestOAuthClient } from './connector.test-helpers.js';

/**
 * Issue 37: the insights tools, resources and the weekly review through the SDK client. A finding is
 * shown only to a grant that reads both of its measures; summary lines only for the areas granted.
 */
type Connected = Awaited<ReturnType<typeof connectedUser>>;
let app: TestApp;
let alice: Connected;
let planner: Client;
const today = todayIn('UTC');

beforeAll(async () => {
  app = await startConnectorApp();
  alice = await connectedUser(app);
  const from = addDays(today, -60);
  await generateWeeks(alice.user.client, from, today);
  const next = seeded(11);
  await setDays(app, alice.user.id, from, 61, () => {
    const sleep = 5.5 + Math.floor(next() * 7) * 0.5;
    return { sleep, mood: Math.max(1, Math.min(10, Math.round(sleep - 1 + next() * 2))), energy: null };
  });
  await runNight(app, new Date(`${addDays(today, 1)}T04:00:00.000Z`), [alice.user.id]);
  // The same person connected again with the planning area only.
  planner = await connectWithOAuth(`${app.server.deps.config.baseUrl}/mcp`, new TestOAuthClient(alice.user.client.cookie!, {}, { areas: ['planning'] }));
});
afterAll(async () => {
  await Promise.all([alice?.client.close(), planner?.close()]);
  await app?.close();
});

const json = (result: { contents: object[] }) => JSON.parse(String((result.contents[0] as { text?: string }).text));

describe('insights tools', () => {
  it('lists the findings with their sentence, numbers and days; a grant without health sees none of sleep and mood', async () => {
    const { insights, meta } = await callOk(alice.client, 'insights_list', { limit: 10 });
    const finding = insights.find((i: any) => i.condition === 'sleepHours' && i.outcome === 'mood');
    // The strongest lag of the pair is told (lag 0 for this planted relation, seen once as lag 1 in a loaded full run).
    expect(finding, JSON.stringify(finding)).toBeDefined();
    expect(finding.n, JSON.stringify(finding)).toBe(61 - finding.lag);
    expect(finding.sentence).toMatch(/ you sleep .* your mood is .* higher \(\d+ days, q/);
    expect(finding.days).toHaveLength(finding.n);
    expect(meta.total).toBe(insights.length);
    expect((await callOk(alice.client, 'insights_list', { metric: 'energy' })).insights).toEqual([]);
    expect((await callOk(planner, 'insights_list', {})).insights).toEqual([]);
    expect((await callError(alice.client, 'insights_list', { metric: 'happiness' })).code).toBeDefined();
  });

  it('summarises the week and this day last year, keeping the lines of areas not granted out', async () => {
    const summary = await callOk(alice.client, 'insights_weekly_summary', { date: today });
    expect(summary.metrics.map((m: any) => m.metric)).toEqual(expect.arrayContaining(['sleepHours', 'mood']));
    expect(summary.streaks.find((s: any) => s.metric === 'mood')).toMatchObject({ area: 'health', sentence: expect.stringMatching(/^You logged your mood \d+ days in a row\.$/) });
    const narrow = await callOk(planner, 'insights_weekly_summary', { date: today });
    expect(narrow.metrics).toEqual([]);
    expect(narrow.streaks).toEqual([]);

    // A year after today looks back at today-ish (a leap day in between moves it by one: both were logged).
    const lastYear = await callOk(alice.client, 'insights_this_day_last_year', { date: addDays(today, 365) });
    expect(lastYear).toMatchObject({ date: addDays(today, 365) });
    expect(lastYear.values.map((v: any) => v.metric)).toEqual(expect.arrayContaining(['sleepHours', 'mood']));
    expect(lastYear.spending).toEqual([]);
    const hidden = await callOk(planner, 'insights_this_day_last_year', { date: addDays(today, 365) });
    expect(hidden.values).toEqual([]);
    expect(hidden).not.toHaveProperty('spending');
    expect((await callError(alice.client, 'insights_this_day_last_year', { date: 'yesterday' })).code).toBeDefined();
  });

  it('offers the insights and the weekly summary as resources, and the weekly review reads them', async () => {
    const listed = json(await alice.client.readResource({ uri: 'life-planner://insights' }));
    expect(listed.insights.length).toBeGreaterThan(0);
    const week = json(await alice.client.readResource({ uri: `life-planner://insights/week/${today}` }));
    expect(week.through).toBe(today);
    const review = await alice.client.getPrompt({ name: 'weekly_review', arguments: { date: today } });
    const text = String((review.messages[0]!.content as { text: string }).text);
    expect(text).toContain('## What rose, what fell, streaks (against the week before) (insights_weekly_summary)');
    expect(text).toContain('## What my data says (strongest insights) (insights_list)');
    expect(text).toContain('your mood is');
  });
});
