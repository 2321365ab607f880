import { readFileSync } from 'node:fs';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_FIELD_SOURCES } from '../app/loaders.js';
import { DAY_TOPIC, WEEK_TOPIC } from '../planning/planning.live.js';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { weekDayIds } from '../../test/support/fixtures.js';
import { liveClient, type LiveClient } from '../../test/support/live-client.js';

const MONDAY = '2026-11-23';
/** An upper bound for an awaited event (not a sleep): generous, for a loaded 2-core machine. */
const WAIT = 15_000;
const DAY = `subscription ($dayId: UUID!) { dayChanged(dayId: $dayId) {
  id socialHappenings { id } bodyMeasurements { id } journalEntries { id } readingSessions { id }
} }`;

/** Issue 34.7: every field of `Day` is followed by the day and week subscriptions, whichever domain adds it. */
describe('the day subscription follows every field of Day', () => {
  let app: TestApp;
  let user: { client: HttpClient; id: string };
  let days: string[];
  let socket: LiveClient;

  beforeAll(async () => {
    app = await sharedTestApp();
    user = await signUp(app.url);
    days = await weekDayIds(user.client, MONDAY);
  });
  afterAll(async () => {
    await socket?.dispose();
  });

  it('each field of the schema\'s Day declares the records it reads, and a write to any of them reaches dayChanged and weekChanged', () => {
    const schema = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    const fields = Object.keys((schema.getType('Day') as GraphQLObjectType).getFields());
    expect(fields.length).toBeGreaterThanOrEqual(30);
    const entities = new Set(Object.values(app.server.orm.getMetadata().getAll()).map((meta) => meta.className));
    const undeclared = fields.filter((field) => !DAY_FIELD_SOURCES[field]?.length);
    expect(undeclared, 'Day fields with no declared records (add them beside the domain\'s loaders, gathered in src/app/loaders.ts)').toEqual([]);
    for (const field of fields) {
      for (const entity of DAY_FIELD_SOURCES[field]!) {
        expect(entities.has(entity), `${field}: ${entity} is not an entity`).toBe(true);
        const change = { entity, id: 'x', kind: 'created' as const, scope: { day: [days[0]!] } };
        expect(DAY_TOPIC.affectedBy(change, { dayId: days[0] }), `dayChanged follows ${field} (${entity})`).toBe(true);
        expect(WEEK_TOPIC.affectedBy(change, { startDate: MONDAY }), `weekChanged follows ${field} (${entity})`).toBe(true);
      }
    }
  });

  it('a social happening, body measurement, journal entry and reading session added to the followed day each reach dayChanged', async () => {
    const monday = days[0]!;
    socket = liveClient(app.url, user.client.cookie);
    const day = socket.follow(DAY, { dayId: monday });
    await day.waitFor((r) => r.data?.dayChanged?.id === monday, WAIT);
    const show = (key: string, id: string) => day.waitFor((r) => r.data?.dayChanged?.[key]?.some((x: { id: string }) => x.id === id), WAIT);
    const made = async (query: string, variables: Record<string, unknown>) => {
      const res = await user.client.graphql(query, variables);
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      return Object.values(res.body.data as Record<string, { id: string }>)[0]!.id;
    };

    const happening = await made(
      `mutation ($dayId: UUID!) { createSocialHappening(dayId: $dayId, title: "Dinner with Sam", startTime: "2026-11-23T18:00:00Z", endTime: "2026-11-23T20:00:00Z") { id } }`,
      { dayId: monday },
    );
    await show('socialHappenings', happening);
    const measurement = await made(`mutation ($dayId: UUID!) { createBodyMeasurement(dayId: $dayId, weight: 72.5) { id } }`, { dayId: monday });
    await show('bodyMeasurements', measurement);
    const question = await made(`mutation { createJournalQuestion(question: "What went well?") { id } }`, {});
    const entry = await made(`mutation ($dayId: UUID!, $q: UUID!) { createJournalEntry(dayId: $dayId, questionId: $q, answer: "The walk") { id } }`, { dayId: monday, q: question });
    await show('journalEntries', entry);
    const book = await made(`mutation { createBook(title: "Dune", author: "Frank Herbert", totalPages: 600) { id } }`, {});
    const session = await made(`mutation ($dayId: UUID!, $b: UUID!) { createReadingSession(dayId: $dayId, bookId: $b, pagesRead: 20, duration: 30) { id } }`, { dayId: monday, b: book });
    await show('readingSessions', session);
  });
});
