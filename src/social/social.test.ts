import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MISSING_ID } from '../../test/support/fixtures.js';
import { expectNotFound, expectValidation, outboxEvents } from '../../test/support/expectations.js';
import { dbRows, fetchHandedOut, makeImage, upload, waitForVariants } from '../files/files.test-helpers.js';
import { recordStatements } from '../../test/support/statement-counter.js';
import { weekDays } from '../training/activity.test-helpers.js';

/** People (own image pictures, search, friend_added) and social happenings (own days and guests, times in order). */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;

beforeAll(async () => {
  app = await startTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
});
afterAll(async () => {
  await app?.close();
});

async function createPerson(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/people', { name: 'Ada Lovelace', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function createHappening(client: HttpClient, body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/api/v1/social-happenings', {
    title: 'Dinner',
    startTime: '2027-01-04T18:00:00.000Z',
    endTime: '2027-01-04T20:00:00.000Z',
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

async function image(client: HttpClient): Promise<string> {
  const res = await upload(client, await makeImage('jpeg', 200, 200), 'image', 'face.jpg');
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

describe('people', () => {
  it('creates (201) with an own picture, lists, gets, patches (null clears), deletes', async () => {
    const { client } = await signUp(app.url);
    const picture = await image(client);
    const ada = await createPerson(client, { name: ' Ada ', relationshipType: 'Family', pictureUrl: picture, notes: 'Met at the lab' });
    expect(ada).toMatchObject({ name: 'Ada', relationshipType: 'family', pictureUrl: picture, notes: 'Met at the lab' });
    expect(ada.picture).toMatchObject({ id: picture, url: expect.stringContaining(picture) });
    expect(ada.happenings).toBeUndefined();
    await waitForVariants(client, picture);
    expect(ada.pictureThumbnailUrl).toContain('variant=thumbnail');
    const thumb = await fetchHandedOut(app, ada.pictureThumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const bo = await createPerson(client, { name: 'Bo' });
    expect(bo).toMatchObject({ relationshipType: null, pictureUrl: null, picture: null, pictureThumbnailUrl: null, notes: null });

    const list = await client.get('/api/v1/people');
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: any) => p.name)).toEqual(['Ada', 'Bo']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, total: 2 });
    expect((await client.get(`/api/v1/people/${ada.id}`)).body.data.name).toBe('Ada');

    const patched = await client.patch(`/api/v1/people/${ada.id}`, { name: 'Ada L.', pictureUrl: null, notes: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Ada L.', relationshipType: 'family', pictureUrl: null, notes: null });

    const gone = await client.delete(`/api/v1/people/${bo.id}`);
    expect(gone.body.data).toEqual({ id: bo.id, message: 'Person deleted' });
    expectNotFound(await client.get(`/api/v1/people/${bo.id}`));
    expectNotFound(await client.patch(`/api/v1/people/${bo.id}`, { name: 'x' }));
    expectNotFound(await client.delete(`/api/v1/people/${bo.id}`));
  });

  it('filters by relationshipType and searches name and notes case-insensitively', async () => {
    const { client } = await signUp(app.url);
    await createPerson(client, { name: 'Grace Hopper', relationshipType: 'friend', notes: 'COBOL' });
    await createPerson(client, { name: 'Alan', relationshipType: 'colleague', notes: 'likes cobol and chess' });
    await createPerson(client, { name: 'Linus', relationshipType: 'friend' });
    const names = async (query: string) => (await client.get(`/api/v1/people?${query}`)).body.data.map((p: any) => p.name);
    expect(await names('relationshipType=friend')).toEqual(['Grace Hopper', 'Linus']);
    expect(await names('relationshipType=FRIEND')).toEqual(['Grace Hopper', 'Linus']);
    expect(await names('search=cobol')).toEqual(['Alan', 'Grace Hopper']);
    expect(await names('search=GRACE')).toEqual(['Grace Hopper']);
    expect(await names('search=cobol&relationshipType=friend')).toEqual(['Grace Hopper']);
    expect(await names('search=%25')).toEqual([]);
  });

  it('fires friend_added on create as friend and on a change to friend, not again while staying friend', async () => {
    const { client, id } = await signUp(app.url);
    const friend = await createPerson(client, { relationshipType: 'friend' });
    const other = await createPerson(client, { relationshipType: 'family' });
    await createPerson(client, { name: 'No type' });
    let events = await outboxEvents(app, id, 'friend_added');
    expect(events.map((e) => e.data.friendId)).toEqual([friend.id]);
    expect(events[0]!.data.addedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    await client.patch(`/api/v1/people/${other.id}`, { relationshipType: 'friend' });
    await client.patch(`/api/v1/people/${other.id}`, { relationshipType: 'friend', name: 'Still friend' });
    await client.patch(`/api/v1/people/${friend.id}`, { notes: 'x' });
    events = await outboxEvents(app, id, 'friend_added');
    expect(events.map((e) => e.data.friendId)).toEqual([friend.id, other.id]);
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.post('/api/v1/people', {}), 'name');
    expectValidation(await client.post('/api/v1/people', { name: '  ' }), 'name');
    expectValidation(await client.post('/api/v1/people', { name: 5 }), 'name');
    expectValidation(await client.post('/api/v1/people', { name: 'A', notes: ['x'] }), 'notes');
    expectValidation(await client.post('/api/v1/people', { name: 'A', pictureUrl: 'not-a-uuid' }), 'pictureUrl');
    expectValidation(await client.get('/api/v1/people/not-a-uuid'), 'personId');
    const p = await createPerson(client);
    expectValidation(await client.patch(`/api/v1/people/${p.id}`, { name: null }), 'name');
    expect((await client.get('/api/v1/people')).body.meta.total).toBe(1);
  });

  it("answers 404 for another user's person, and for another user's file as pictureUrl", async () => {
    const mine = await createPerson(alice);
    expectNotFound(await bob.get(`/api/v1/people/${mine.id}`));
    expectNotFound(await bob.patch(`/api/v1/people/${mine.id}`, { name: 'x' }));
    expectNotFound(await bob.delete(`/api/v1/people/${mine.id}`));
    expect((await bob.get('/api/v1/people')).body.data).toEqual([]);
    const alicePicture = await image(alice);
    expectNotFound(await bob.post('/api/v1/people', { name: 'B', pictureUrl: alicePicture }), 'pictureUrl');
    const bobs = await createPerson(bob);
    expectNotFound(await bob.patch(`/api/v1/people/${bobs.id}`, { pictureUrl: alicePicture }), 'pictureUrl');
    expectNotFound(await bob.post('/api/v1/people', { name: 'B', pictureUrl: MISSING_ID }), 'pictureUrl');
    expect((await alice.get(`/api/v1/people/${mine.id}`)).body.data.name).toBe('Ada Lovelace');
  });
});

describe('birthdays', () => {
  it('takes a birthday on create and update (null clears it), any year from 1900 on, 29 February included', async () => {
    const { client } = await signUp(app.url);
    const grace = await createPerson(client, { name: 'Grace', birthday: '1906-12-09' });
    expect(grace.birthday).toBe('1906-12-09');
    expect((await client.get(`/api/v1/people/${grace.id}`)).body.data.birthday).toBe('1906-12-09');
    const leap = await client.patch(`/api/v1/people/${grace.id}`, { birthday: '2000-02-29' });
    expect(leap.status, leap.text).toBe(200);
    expect(leap.body.data.birthday).toBe('2000-02-29');
    // A PATCH without it keeps it; null clears it.
    expect((await client.patch(`/api/v1/people/${grace.id}`, { notes: 'Admiral' })).body.data.birthday).toBe('2000-02-29');
    expect((await client.patch(`/api/v1/people/${grace.id}`, { birthday: null })).body.data.birthday).toBeNull();
    const gql = await client.graphql('mutation { createPerson(name: "Alan", birthday: "1912-06-23") { birthday } }');
    expect(gql.body.errors, gql.text).toBeUndefined();
    expect(gql.body.data.createPerson.birthday).toBe('1912-06-23');
    expect((await createPerson(client, { name: 'No date' })).birthday).toBeNull();
  });

  it('refuses a birthday that is not a date, or before 1900, with 400 naming it; another user’s person is 404', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.post('/api/v1/people', { name: 'X', birthday: '1899-12-31' }), 'birthday');
    expectValidation(await client.post('/api/v1/people', { name: 'X', birthday: '2001-02-29' }), 'birthday');
    expectValidation(await client.post('/api/v1/people', { name: 'X', birthday: '12/09/1906' }), 'birthday');
    expectValidation(await client.post('/api/v1/people', { name: 'X', birthday: 19061209 }), 'birthday');
    expect((await client.get('/api/v1/people')).body.meta.total).toBe(0);
    const ada = await createPerson(client, { birthday: '1915-12-10' });
    expectValidation(await client.patch(`/api/v1/people/${ada.id}`, { birthday: '1815-12-10' }), 'birthday');
    expectNotFound(await bob.patch(`/api/v1/people/${ada.id}`, { birthday: '1990-01-01' }));
    expect((await client.get(`/api/v1/people/${ada.id}`)).body.data.birthday).toBe('1915-12-10');
  });
});

describe('social happenings', () => {
  it('creates (201) with own guests and item ids, lists, gets, patches, deletes', async () => {
    const { client } = await signUp(app.url);
    const days = await weekDays(client);
    const ada = await createPerson(client, { name: 'Ada' });
    const item = '6f1c2b8e-0d7a-4d8e-9b6a-1a2b3c4d5e6f';
    const h = await createHappening(client, { dayId: days[0], location: ' Café ', guestIds: [ada.id, ada.id], itemIds: [item] });
    expect(h).toMatchObject({ dayId: days[0], title: 'Dinner', location: 'Café', guestIds: [ada.id], itemIds: [item], startTime: '2027-01-04T18:00:00.000Z' });

    expect((await client.get(`/api/v1/social-happenings/${h.id}`)).body.data.id).toBe(h.id);
    const patched = await client.patch(`/api/v1/social-happenings/${h.id}`, { title: 'Lunch', location: null, guestIds: [], dayId: days[1] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ title: 'Lunch', location: null, guestIds: [], itemIds: [item], dayId: days[1] });

    const gone = await client.delete(`/api/v1/social-happenings/${h.id}`);
    expect(gone.body.data).toEqual({ id: h.id, message: 'SocialHappening deleted' });
    expectNotFound(await client.get(`/api/v1/social-happenings/${h.id}`));
    expectNotFound(await client.patch(`/api/v1/social-happenings/${h.id}`, { title: 'x' }));
    expectNotFound(await client.delete(`/api/v1/social-happenings/${h.id}`));
  });

  it('filters by dayId, date range and personId (most recent first); a person lists their happenings; a day shows its own', async () => {
    const { client } = await signUp(app.url);
    const days = await weekDays(client, '2027-03-01');
    const ada = await createPerson(client, { name: 'Ada' });
    const bo = await createPerson(client, { name: 'Bo' });
    const first = await createHappening(client, { dayId: days[0], title: 'Mon', startTime: '2027-03-01T10:00:00Z', endTime: '2027-03-01T11:00:00Z', guestIds: [ada.id] });
    const second = await createHappening(client, { dayId: days[2], title: 'Wed', startTime: '2027-03-03T10:00:00Z', endTime: '2027-03-03T11:00:00Z', guestIds: [ada.id, bo.id] });
    const third = await createHappening(client, { dayId: days[2], title: 'Wed late', startTime: '2027-03-03T20:00:00Z', endTime: '2027-03-03T21:00:00Z' });
    const titles = async (query: string) => (await client.get(`/api/v1/social-happenings?${query}`)).body.data.map((h: any) => h.title);
    expect(await titles('')).toEqual(['Wed late', 'Wed', 'Mon']);
    expect(await titles(`dayId=${days[2]}`)).toEqual(['Wed late', 'Wed']);
    expect(await titles('startDate=2027-03-02&endDate=2027-03-07')).toEqual(['Wed late', 'Wed']);
    expect(await titles('endDate=2027-03-01')).toEqual(['Mon']);
    expect(await titles(`personId=${ada.id}`)).toEqual(['Wed', 'Mon']);
    expect(await titles(`personId=${bo.id}&dayId=${days[0]}`)).toEqual([]);
    expectNotFound(await client.get(`/api/v1/social-happenings?personId=${MISSING_ID}`));
    expectValidation(await client.get('/api/v1/social-happenings?startDate=2027-03-05&endDate=2027-03-01'), 'startDate');

    const gql = await client.graphql(`query($id: UUID!) { person(personId: $id) { happenings { title } } people { items { name happenings { id } } } }`, { id: ada.id });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.person.happenings.map((h: any) => h.title)).toEqual(['Wed', 'Mon']);
    expect(gql.body.data.people.items.map((p: any) => p.happenings.length)).toEqual([2, 1]);

    const day = await client.get(`/api/v1/days/${days[2]}`);
    expect(day.status, day.text).toBe(200);
    expect(day.body.data.socialHappenings.map((h: any) => h.id)).toEqual([second.id, third.id]);
    expect((await client.get(`/api/v1/days/${days[0]}`)).body.data.socialHappenings.map((h: any) => h.id)).toEqual([first.id]);

    // Deleting a guest takes them out of the happenings.
    await client.delete(`/api/v1/people/${bo.id}`);
    expect((await client.get(`/api/v1/social-happenings/${second.id}`)).body.data.guestIds).toEqual([ada.id]);
  });

  it('refuses startTime ≥ endTime, wrong JSON types and non-uuid ids with 400, storing nothing', async () => {
    const { client } = await signUp(app.url);
    const [dayId] = await weekDays(client);
    const post = (body: Record<string, unknown>) =>
      client.post('/api/v1/social-happenings', { dayId, title: 'T', startTime: '2027-01-04T18:00:00Z', endTime: '2027-01-04T19:00:00Z', ...body });
    expectValidation(await post({ endTime: '2027-01-04T18:00:00Z' }), 'endTime');
    expectValidation(await post({ endTime: '2027-01-04T17:00:00Z' }), 'endTime');
    expectValidation(await post({ startTime: 'yesterday' }), 'startTime');
    expectValidation(await post({ guestIds: 'abc' }), 'guestIds');
    expectValidation(await post({ guestIds: ['not-a-uuid'] }), 'guestIds');
    expectValidation(await post({ itemIds: [5] }), 'itemIds');
    expectValidation(await post({ title: 7 }), 'title');
    expectValidation(await post({ dayId: 'nope' }), 'dayId');
    expectValidation(await post({ title: undefined }), 'title');
    expect((await client.get('/api/v1/social-happenings')).body.meta.total).toBe(0);
    const h = (await post({})).body.data;
    expectValidation(await client.patch(`/api/v1/social-happenings/${h.id}`, { startTime: '2027-01-04T19:30:00Z' }), 'endTime');
    expectValidation(await client.patch(`/api/v1/social-happenings/${h.id}`, { title: null }), 'title');
    expect((await client.get(`/api/v1/social-happenings/${h.id}`)).body.data.startTime).toBe('2027-01-04T18:00:00.000Z');
  });

  it("answers 404 for another user's happening, and names dayId or guestIds for another user's ids in a body", async () => {
    const aliceDays = await weekDays(alice);
    const bobDays = await weekDays(bob);
    const alicePerson = await createPerson(alice, { name: 'Alice friend' });
    const mine = await createHappening(alice, { dayId: aliceDays[0], guestIds: [alicePerson.id] });
    expectNotFound(await bob.get(`/api/v1/social-happenings/${mine.id}`));
    expectNotFound(await bob.patch(`/api/v1/social-happenings/${mine.id}`, { title: 'x' }));
    expectNotFound(await bob.delete(`/api/v1/social-happenings/${mine.id}`));
    expect((await bob.get('/api/v1/social-happenings')).body.data).toEqual([]);
    const base = { title: 'T', startTime: '2027-01-04T18:00:00Z', endTime: '2027-01-04T19:00:00Z' };
    expectNotFound(await bob.post('/api/v1/social-happenings', { ...base, dayId: aliceDays[0] }), 'dayId');
    expectNotFound(await bob.post('/api/v1/social-happenings', { ...base, dayId: bobDays[0], guestIds: [alicePerson.id] }), 'guestIds');
    expectNotFound(await bob.post('/api/v1/social-happenings', { ...base, dayId: bobDays[0], guestIds: [MISSING_ID] }), 'guestIds');
    const bobs = await createHappening(bob, { dayId: bobDays[0] });
    expectNotFound(await bob.patch(`/api/v1/social-happenings/${bobs.id}`, { dayId: aliceDays[1] }), 'dayId');
    expectNotFound(await bob.patch(`/api/v1/social-happenings/${bobs.id}`, { guestIds: [alicePerson.id] }), 'guestIds');
    expectNotFound(await bob.get(`/api/v1/social-happenings?personId=${alicePerson.id}`), 'personId');
    expectNotFound(await bob.get(`/api/v1/social-happenings?dayId=${aliceDays[0]}`));
    expect((await dbRows(app, 'select count(*)::int as n from social_happenings where user_id = ?', [aliceId]))[0].n).toBe(1);
  });
});

describe('reads in a bounded number of statements', () => {
  it('a page of people with pictures and happenings costs the same statements for 1 person and for 6', async () => {
    const count = async (people: number): Promise<number> => {
      const { client } = await signUp(app.url);
      const days = await weekDays(client);
      const picture = await image(client);
      for (let i = 0; i < people; i++) {
        const p = await createPerson(client, { name: `P${i}`, pictureUrl: picture });
        await createHappening(client, { dayId: days[i % 7], guestIds: [p.id] });
      }
      const query = '{ people { items { name picture { url } pictureThumbnailUrl happenings { id title } } } }';
      const recorder = recordStatements();
      const res = await client.graphql(query).finally(() => recorder.stop());
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.people.items).toHaveLength(people);
      expect(res.body.data.people.items.every((p: any) => p.happenings.length === 1)).toBe(true);
      return recorder.statements.length;
    };
    const one = await count(1);
    expect(one).toBeLessThanOrEqual(5);
    expect(await count(6)).toBe(one);
  });
});
