import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, startTestApp, type TestApp } from '../../../test/support/test-app.js';
import { HttpClient, signUp } from '../../../test/support/http-client.js';
import { MISSING_ID } from '../../../test/support/fixtures.js';
import { expectNotFound, expectStatus, expectValidation, outboxEvents } from '../../../test/support/expectations.js';
import { dbRows } from '../../files/files.test-helpers.js';

/** Brain forms: editor routes, publish, the one submit service through the session and public REST doors. */
let app: TestApp;
let alice: HttpClient;
let aliceId: string;
let bob: HttpClient;
let bobId: string;

const FIELDS = [
  { key: 'name', label: 'Your name', type: 'text', required: true },
  { key: 'email', label: 'Email', type: 'email' },
  { key: 'age', label: 'Age', type: 'number' },
  { key: 'colour', label: 'Favourite colour', type: 'select', options: ['red', 'green', 'blue'] },
  { key: 'langs', label: 'Languages', type: 'multi_select', options: ['ts', 'go', 'rust'] },
  { key: 'agree', label: 'I agree', type: 'checkbox' },
  { key: 'day', label: 'Day', type: 'date' },
  { key: 'stars', label: 'Stars', type: 'rating' },
  { key: 'bio', label: 'Bio', type: 'long_text' },
];

const QUIZ = [
  { key: 'capital', label: 'Capital of France?', type: 'select', options: ['Paris', 'Lyon'], correct: 'Paris', points: 2 },
  { key: 'sum', label: '2 + 2?', type: 'number', correct: 4 },
  { key: 'primes', label: 'Primes', type: 'multi_select', options: ['2', '4', '5'], correct: ['2', '5'] },
];

beforeAll(async () => {
  app = await sharedTestApp();
  ({ client: alice, id: aliceId } = await signUp(app.url));
  ({ client: bob, id: bobId } = await signUp(app.url));
});

async function makeForm(client: HttpClient, body: Record<string, unknown> = {}): Promise<any> {
  const res = await client.post('/api/v1/brain/forms', { name: 'Signup', createDatabase: { name: 'Signups' }, config: { fields: FIELDS }, ...body });
  expectStatus(res, 201);
  return res.body.data;
}

async function publish(client: HttpClient, id: string): Promise<string> {
  const res = await client.post(`/api/v1/brain/forms/${id}/publish`, { published: true });
  expectStatus(res, 200);
  return res.body.data.publicSlug;
}

const anon = () => new HttpClient(app.url);

describe('form editor routes', () => {
  it('creates with createDatabase (fields become properties), reads, lists, updates, deletes', async () => {
    const form = await makeForm(alice, { config: { fields: FIELDS, description: 'Join us', accessPassword: 'sesame', thankYouMessage: 'Thanks!' } });
    expect(form).toMatchObject({ name: 'Signup', syncFields: true, published: false, publicSlug: null, hasAccessPassword: true });
    expect(form.config).toMatchObject({ description: 'Join us', thankYouMessage: 'Thanks!', hasAccessPassword: true });
    expect(JSON.stringify(form)).not.toContain('sesame');
    expect(form.config.accessPassword).toBeUndefined();
    expect(form.fields).toEqual(FIELDS);
    expect(form.database).toMatchObject({ id: form.databaseId, name: 'Signups' });
    expect(form.database.properties.map((p: any) => [p.key, p.type])).toEqual([
      ['name', 'text'], ['email', 'email'], ['age', 'number'], ['colour', 'select'], ['langs', 'multi_select'],
      ['agree', 'checkbox'], ['day', 'date'], ['stars', 'number'], ['bio', 'text'],
    ]);
    const [stored] = await dbRows(app, 'select access_password_hash from brain_form where id = ?', [form.id]);
    expect(stored.access_password_hash).toMatch(/^\$argon2id\$/);

    const read = await alice.get(`/api/v1/brain/forms/${form.id}`);
    expectStatus(read, 200);
    expect(read.body.data).toEqual(form);
    expect((await alice.get('/api/v1/brain/forms')).body.data.map((f: any) => f.id)).toContain(form.id);

    // PATCH: a config without accessPassword keeps it; syncFields adds the new field's property.
    const patched = await alice.patch(`/api/v1/brain/forms/${form.id}`, { name: 'Join', config: { fields: [...FIELDS, { key: 'city', label: 'City', type: 'text' }] } });
    expectStatus(patched, 200);
    expect(patched.body.data).toMatchObject({ name: 'Join', hasAccessPassword: true });
    expect(patched.body.data.database.properties.at(-1)).toEqual({ key: 'city', name: 'City', type: 'text' });
    const cleared = await alice.patch(`/api/v1/brain/forms/${form.id}`, { config: { fields: FIELDS, accessPassword: null } });
    expect(cleared.body.data.hasAccessPassword).toBe(false);

    const del = await alice.delete(`/api/v1/brain/forms/${form.id}`);
    expect(del.body.data).toEqual({ id: form.id, deleted: true });
    expectNotFound(await alice.get(`/api/v1/brain/forms/${form.id}`));
    // Its database stays.
    expectStatus(await alice.get(`/api/v1/brain/databases/${form.databaseId}`), 200);
  });

  it('uses an existing database by id; syncFields false leaves its properties alone', async () => {
    const db = await alice.post('/api/v1/brain/databases', { name: 'Leads', properties: [{ key: 'x', name: 'X', type: 'text' }] });
    const form = await makeForm(alice, { createDatabase: undefined, databaseId: db.body.data.id });
    expect(form.syncFields).toBe(false);
    expect(form.database.properties).toEqual([{ key: 'x', name: 'X', type: 'text' }]);
    const synced = await alice.patch(`/api/v1/brain/forms/${form.id}`, { syncFields: true });
    expect(synced.body.data.database.properties.map((p: any) => p.key)).toEqual(['x', ...FIELDS.map((f) => f.key)]);
  });

  it('publish assigns a publicSlug and keeps it across unpublish', async () => {
    const form = await makeForm(alice);
    const slug = await publish(alice, form.id);
    expect(slug).toMatch(/^[A-Za-z0-9_-]{10,32}$/);
    const off = await alice.post(`/api/v1/brain/forms/${form.id}/publish`, { published: false });
    expect(off.body.data).toMatchObject({ published: false, publicSlug: slug });
    expectNotFound(await anon().get(`/api/v1/brain/public/forms/${slug}`));
    expect(await publish(alice, form.id)).toBe(slug);
    expectValidation(await alice.post(`/api/v1/brain/forms/${form.id}/publish`, { published: 'yes' }), 'published');
    expectValidation(await alice.post(`/api/v1/brain/forms/${form.id}/publish`, {}), 'published');
  });

  it('refuses a bad form body with VALIDATION_ERROR', async () => {
    const bad: Record<string, unknown>[] = [
      { name: '' },
      { createDatabase: undefined },
      { databaseId: 'nope', createDatabase: undefined },
      { databaseId: MISSING_ID },
      { createDatabase: { title: 'x' } },
      { config: { fields: [{ key: 'a', label: 'A', type: 'slider' }] } },
      { config: { fields: [{ key: 'a', label: 'A', type: 'text' }, { key: 'a', label: 'B', type: 'text' }] } },
      { config: { fields: [{ key: 'a', label: 'A', type: 'select' }] } },
      { config: { fields: [{ key: 'a', label: 'A', type: 'select', options: ['x'], correct: 'y' }] } },
      { config: { fields: [{ key: 'a', label: 'A', type: 'number', correct: 'four' }] } },
      { config: { fields: [{ key: '__x', label: 'A', type: 'text' }] } },
      { config: { closesAt: 'tomorrow' } },
      { config: { closed: 'yes' } },
      { config: { colour: 'red' } },
      { config: 'x' },
      { syncFields: 'no' },
      { extra: 1 },
    ];
    for (const body of bad) expectValidation(await alice.post('/api/v1/brain/forms', { name: 'F', createDatabase: { name: 'D' }, ...body }));
    const form = await makeForm(alice);
    expectValidation(await alice.patch(`/api/v1/brain/forms/${form.id}`, { config: { fields: 'x' } }));
    expectValidation(await alice.patch(`/api/v1/brain/forms/${form.id}`, { databaseId: MISSING_ID }));
    expectValidation(await alice.get('/api/v1/brain/forms/not-a-uuid'), 'formId');
    expectStatus(await anon().get('/api/v1/brain/forms'), 401, 'UNAUTHORIZED');
  });
});

describe('isolation', () => {
  it("another user's form and a foreign databaseId answer 404", async () => {
    const form = await makeForm(alice);
    const missing = await bob.get(`/api/v1/brain/forms/${MISSING_ID}`);
    expectNotFound(missing);
    for (const res of [
      await bob.get(`/api/v1/brain/forms/${form.id}`),
      await bob.patch(`/api/v1/brain/forms/${form.id}`, { name: 'x' }),
      await bob.delete(`/api/v1/brain/forms/${form.id}`),
      await bob.post(`/api/v1/brain/forms/${form.id}/publish`, { published: true }),
      await bob.post(`/api/v1/brain/forms/${form.id}/submit`, { values: { name: 'x' } }),
    ]) {
      expectNotFound(res);
      expect(res.body.error.message).toBe(missing.body.error.message);
    }
    const foreign = await bob.post('/api/v1/brain/forms', { name: 'Mine', databaseId: form.databaseId });
    expectNotFound(foreign);
    expect((await bob.get('/api/v1/brain/forms')).body.data).toEqual([]);
    expect((await alice.get(`/api/v1/brain/forms/${form.id}`)).body.data.name).toBe('Signup');
  });
});

describe('submit through the session door', () => {
  it('creates a record and records brain_form_submitted for the owner in the same transaction', async () => {
    const form = await makeForm(alice);
    const values = { name: 'Ada', email: 'ada@example.com', age: 36, colour: 'green', langs: ['ts', 'rust'], agree: true, day: '2026-12-10', stars: 5, bio: 'Engines' };
    const res = await alice.post(`/api/v1/brain/forms/${form.id}/submit`, { values, respondentName: 'Ada L.' });
    expectStatus(res, 201);
    expect(Object.keys(res.body.data).sort()).toEqual(['database', 'form', 'quiz', 'record', 'thankYouMessage']);
    expect(res.body.data.quiz).toBeNull();
    expect(res.body.data.form.id).toBe(form.id);
    expect(res.body.data.database.id).toBe(form.databaseId);
    expect(res.body.data.record.values).toMatchObject({ ...values, __respondentName: 'Ada L.', __respondentUserId: aliceId });
    expect(res.body.data.thankYouMessage).toBe('Thank you! Your answer has been recorded.');
    const records = await alice.get(`/api/v1/brain/databases/${form.databaseId}/records`);
    expect(records.body.data.map((r: any) => r.id)).toEqual([res.body.data.record.id]);

    const events = await outboxEvents(app, aliceId, 'brain_form_submitted');
    const event = events.find((e) => (e.data as any).recordId === res.body.data.record.id)!;
    expect(Object.keys(event.data).sort()).toEqual(['databaseId', 'formId', 'formName', 'publicSlug', 'quiz', 'recordId', 'respondentName', 'submittedAt', 'values']);
    expect(event.data).toMatchObject({ formId: form.id, formName: 'Signup', publicSlug: null, databaseId: form.databaseId, respondentName: 'Ada L.', quiz: null });
    expect(event.data.values).toEqual({ ...values, __respondentName: 'Ada L.' });
  });

  it('answers 400 VALIDATION (not VALIDATION_ERROR) with details.errors for missing and ill-typed answers', async () => {
    const form = await makeForm(alice);
    const res = await alice.post(`/api/v1/brain/forms/${form.id}/submit`, { values: { email: 'nope', age: 'old', colour: 'pink', langs: ['cobol'], agree: 'yes', day: 'soon', stars: 6, extra: 1 } });
    expectStatus(res, 400, 'VALIDATION');
    expect(res.body.error.details.errors.map((e: any) => e.path.join('.')).sort()).toEqual(
      ['values.age', 'values.agree', 'values.colour', 'values.day', 'values.email', 'values.extra', 'values.langs', 'values.name', 'values.stars'].sort(),
    );
    expectStatus(await alice.post(`/api/v1/brain/forms/${form.id}/submit`, { values: 'x' }), 400, 'VALIDATION');
    expectStatus(await alice.post(`/api/v1/brain/forms/${form.id}/submit`, { values: { name: 'A' }, other: 1 }), 400, 'VALIDATION');
    const required = await makeForm(alice, { config: { fields: [{ key: 'ok', label: 'OK', type: 'checkbox', required: true }] } });
    expectStatus(await alice.post(`/api/v1/brain/forms/${required.id}/submit`, { values: { ok: false } }), 400, 'VALIDATION');
    expectStatus(await alice.post(`/api/v1/brain/forms/${required.id}/submit`, { values: { ok: true } }), 201);
    expectNotFound(await alice.post(`/api/v1/brain/forms/${MISSING_ID}/submit`, { values: {} }));
  });

  it('scores a quiz and adds __quiz_* to the values and the event', async () => {
    const form = await makeForm(alice, { config: { fields: QUIZ } });
    const res = await alice.post(`/api/v1/brain/forms/${form.id}/submit`, { values: { capital: 'Paris', sum: 5, primes: ['5', '2'] } });
    expectStatus(res, 201);
    expect(res.body.data.quiz).toEqual({ score: 3, max: 4, pct: 75 });
    expect(res.body.data.record.values).toMatchObject({ __quiz_score: 3, __quiz_max: 4, __quiz_pct: 75 });
    const event = (await outboxEvents(app, aliceId, 'brain_form_submitted')).find((e) => (e.data as any).recordId === res.body.data.record.id)!;
    expect(event.data.quiz).toEqual({ score: 3, max: 4, pct: 75 });
    expect(event.data.values).toEqual({ capital: 'Paris', sum: 5, primes: ['5', '2'], __quiz_score: 3, __quiz_max: 4, __quiz_pct: 75 });
  });

  it('closed and closesAt answer 410 CLOSED; one response per person 409 for the signed-in owner', async () => {
    const closed = await makeForm(alice, { config: { fields: FIELDS, closed: true } });
    expectStatus(await alice.post(`/api/v1/brain/forms/${closed.id}/submit`, { values: { name: 'A' } }), 410, 'CLOSED');
    const past = await makeForm(alice, { config: { fields: FIELDS, closesAt: '2020-01-01T00:00:00Z' } });
    expectStatus(await alice.post(`/api/v1/brain/forms/${past.id}/submit`, { values: { name: 'A' } }), 410, 'CLOSED');
    const future = await makeForm(alice, { config: { fields: FIELDS, closesAt: '2099-01-01T00:00:00Z' } });
    expectStatus(await alice.post(`/api/v1/brain/forms/${future.id}/submit`, { values: { name: 'A' } }), 201);
    const once = await makeForm(alice, { config: { fields: FIELDS, oneResponsePerPerson: true } });
    expectStatus(await alice.post(`/api/v1/brain/forms/${once.id}/submit`, { values: { name: 'A' } }), 201);
    expectStatus(await alice.post(`/api/v1/brain/forms/${once.id}/submit`, { values: { name: 'A' } }), 409, 'ALREADY_SUBMITTED');
  });
});

describe('public REST door', () => {
  it('GET shows the questions without answers; unknown or unpublished slugs are 404', async () => {
    const form = await makeForm(alice, { config: { fields: QUIZ, description: 'Try it', collectRespondentName: true } });
    expectNotFound(await anon().get('/api/v1/brain/public/forms/nope'));
    const slug = await publish(alice, form.id);
    const res = await anon().get(`/api/v1/brain/public/forms/${slug}`);
    expectStatus(res, 200);
    expect(res.body.data).toMatchObject({ publicSlug: slug, name: 'Signup', description: 'Try it', closed: false, requiresPassword: false, collectRespondentName: true, isQuiz: true, alreadySubmitted: false });
    expect(res.body.data.fields[0]).toEqual({ key: 'capital', label: 'Capital of France?', type: 'select', required: false, options: ['Paris', 'Lyon'] });
    expect(res.text).not.toContain('correct');
    expect(res.text).not.toContain('databaseId');
  });

  it('submits without login; the owner gets the event; fingerprint fields stay out of the event', async () => {
    const form = await makeForm(alice);
    const slug = await publish(alice, form.id);
    const res = await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'Grace', stars: 4, __respondentName: 'G' }, respondentKey: 'device-1' });
    expectStatus(res, 201);
    expect(res.body.data).toMatchObject({ form: { id: form.id, name: 'Signup', publicSlug: slug }, record: { values: { name: 'Grace', stars: 4, __respondentName: 'G' } }, thankYouMessage: expect.any(String) });
    expect(res.text).not.toContain('__respondentKey');
    expect(res.text).not.toContain('__respondentIpHash');
    const recordId = res.body.data.record.id;
    const [row] = await dbRows(app, 'select values, respondent_ip_hash, user_id from brain_record where id = ?', [recordId]);
    expect(row.user_id).toBe(aliceId);
    expect(row.values.__respondentKey).toBe('device-1');
    expect(row.values.__respondentIpHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.respondent_ip_hash).toBe(row.values.__respondentIpHash);
    expect(JSON.stringify(row)).not.toContain('127.0.0.1');
    const event = (await outboxEvents(app, aliceId, 'brain_form_submitted')).find((e) => (e.data as any).recordId === recordId)!;
    expect(event.data).toMatchObject({ formId: form.id, publicSlug: slug, respondentName: 'G', quiz: null });
    for (const key of ['__respondentKey', '__respondentUserId', '__respondentIpHash', '__respondentSignals', '__respondentAt']) expect(event.data.values).not.toHaveProperty(key);
    expect(event.data.values).toEqual({ name: 'Grace', stars: 4, __respondentName: 'G' });
    expect(await outboxEvents(app, bobId, 'brain_form_submitted')).toEqual([]);
  });

  it('access password: 401 without or wrong (header, query, body), then opens', async () => {
    const form = await makeForm(alice, { config: { fields: FIELDS, accessPassword: 'sesame' } });
    const slug = await publish(alice, form.id);
    const path = `/api/v1/brain/public/forms/${slug}`;
    const noPw = await anon().get(path);
    expectStatus(noPw, 401, 'UNAUTHORIZED');
    expect(noPw.body.error.details).toEqual({ passwordRequired: true });
    expectStatus(await anon().get(path, { headers: { 'x-brain-access-password': 'wrong' } }), 401, 'UNAUTHORIZED');
    expectStatus(await anon().get(path, { headers: { 'x-brain-access-password': 'sesame' } }), 200);
    expectStatus(await anon().get(`${path}?accessPassword=sesame`), 200);
    expectStatus(await anon().post(`${path}/submit`, { values: { name: 'A' } }), 401, 'UNAUTHORIZED');
    expectStatus(await anon().post(`${path}/submit`, { values: { name: 'A' }, accessPassword: 'nope' }), 401, 'UNAUTHORIZED');
    expectStatus(await anon().post(`${path}/submit`, { values: { name: 'A' }, accessPassword: 'sesame' }), 201);
    expectStatus(await anon().post(`${path}/submit?accessPassword=sesame`, { values: { name: 'B' } }), 201);
    expectStatus(await anon().post(`${path}/submit`, { values: { name: 'C' } }, { headers: { 'x-brain-access-password': 'sesame' } }), 201);
    // The password comes before the answers: a wrong password with bad answers is still 401.
    expectStatus(await anon().post(`${path}/submit`, { values: {} }), 401, 'UNAUTHORIZED');
  });

  it('access password: 10 wrong ones lock the form (429 with Retry-After, even the right one) for everyone; other forms stay open', async () => {
    const form = await makeForm(alice, { config: { fields: FIELDS, accessPassword: 'sesame' } });
    const other = await makeForm(alice, { config: { fields: FIELDS, accessPassword: 'sesame' } });
    const path = `/api/v1/brain/public/forms/${await publish(alice, form.id)}`;
    const otherPath = `/api/v1/brain/public/forms/${await publish(alice, other.id)}`;
    // Visits without a password and right passwords do not count; wrong ones do, by any door.
    for (let i = 0; i < 3; i++) expectStatus(await anon().get(path), 401, 'UNAUTHORIZED');
    expectStatus(await anon().get(path, { headers: { 'x-brain-access-password': 'sesame' } }), 200);
    for (let i = 0; i < 5; i++) expectStatus(await anon().get(path, { headers: { 'x-brain-access-password': `guess${i}` } }), 401, 'UNAUTHORIZED');
    for (let i = 5; i < 10; i++) expectStatus(await anon().post(`${path}/submit`, { values: { name: 'A' }, accessPassword: `guess${i}` }), 401, 'UNAUTHORIZED');
    const locked = await anon().get(path, { headers: { 'x-brain-access-password': 'sesame' } });
    expectStatus(locked, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(locked.body.error.details).toMatchObject({ maxFailures: 10, windowSeconds: 900 });
    expectStatus(await anon().post(`${path}/submit`, { values: { name: 'A' }, accessPassword: 'sesame' }), 429, 'RATE_LIMIT_EXCEEDED');
    expectStatus(await anon().get(otherPath, { headers: { 'x-brain-access-password': 'sesame' } }), 200);
    // The owner needs no password and is not locked out of their own form.
    expectStatus(await alice.post(`/api/v1/brain/forms/${form.id}/submit`, { values: { name: 'Owner' } }), 201);
  });

  it('closed: GET 200 with closed true, submit 410 CLOSED', async () => {
    const form = await makeForm(alice, { config: { fields: FIELDS, closed: true, accessPassword: 'pw' } });
    const slug = await publish(alice, form.id);
    const res = await anon().get(`/api/v1/brain/public/forms/${slug}`);
    expectStatus(res, 200);
    expect(res.body.data).toMatchObject({ closed: true, fields: [] });
    expectStatus(await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'A' }, accessPassword: 'pw' }), 410, 'CLOSED');
    await alice.patch(`/api/v1/brain/forms/${form.id}`, { config: { fields: FIELDS, closesAt: '2021-05-05T10:00:00Z' } });
    expectStatus(await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'A' }, accessPassword: 'pw' }), 410, 'CLOSED');
  });

  it('one response per person: by respondentKey, by the respondent cookie, by the signed-in user', async () => {
    const form = await makeForm(alice, { config: { fields: FIELDS, oneResponsePerPerson: true } });
    const slug = await publish(alice, form.id);
    const submit = (client: HttpClient, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
      client.post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'R' }, ...body }, { headers });

    expectStatus(await submit(anon(), { respondentKey: 'k1' }), 201);
    expectStatus(await submit(anon(), { respondentKey: 'k1' }), 409, 'ALREADY_SUBMITTED');
    expectStatus(await submit(anon(), { respondentKey: 'k2' }), 201);

    // No key: the answer sets the httpOnly respondent cookie, and the cookie counts next time.
    const first = await submit(anon());
    expectStatus(first, 201);
    const setCookie = first.headers.getSetCookie().find((c) => c.startsWith('lp_brain_respondent='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    const cookie = setCookie.split(';')[0];
    expectStatus(await submit(anon(), {}, { cookie }), 409, 'ALREADY_SUBMITTED');
    // The cookie counts even when the client sends a fresh key with it.
    expectStatus(await submit(anon(), { respondentKey: 'fresh' }, { cookie }), 409, 'ALREADY_SUBMITTED');
    const seen = await anon().get(`/api/v1/brain/public/forms/${slug}`, { headers: { cookie } });
    expect(seen.body.data.alreadySubmitted).toBe(true);

    // Signed in: counted by user id, whatever key the client sends.
    expectStatus(await submit(bob, { respondentKey: 'b1' }), 201);
    expectStatus(await submit(bob, { respondentKey: 'b2' }), 409, 'ALREADY_SUBMITTED');
    expect((await bob.get(`/api/v1/brain/public/forms/${slug}`)).body.data.alreadySubmitted).toBe(true);

    // The same address submitting again as another person is not refused (the IP hash never refuses).
    expectStatus(await submit(anon(), { respondentKey: 'k3' }), 201);

    // Two racing submits of one person: exactly one lands (unique index per form and respondent).
    const race = await Promise.all([submit(anon(), { respondentKey: 'race' }), submit(anon(), { respondentKey: 'race' })]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);

    // Without the rule, the same key may answer again.
    const many = await makeForm(alice);
    const manySlug = await publish(alice, many.id);
    for (let i = 0; i < 2; i++) expectStatus(await anon().post(`/api/v1/brain/public/forms/${manySlug}/submit`, { values: { name: 'x' }, respondentKey: 'same' }), 201);
  });

  it('quiz: the score shows only when showQuizScore; the event always carries it', async () => {
    const hidden = await makeForm(alice, { config: { fields: QUIZ } });
    const hiddenSlug = await publish(alice, hidden.id);
    const res = await anon().post(`/api/v1/brain/public/forms/${hiddenSlug}/submit`, { values: { capital: 'Paris', sum: 4, primes: ['2', '5'] } });
    expectStatus(res, 201);
    expect(res.body.data.quiz).toBeUndefined();
    expect(res.body.data.record.values).not.toHaveProperty('__quiz_score');
    const event = (await outboxEvents(app, aliceId, 'brain_form_submitted')).find((e) => (e.data as any).recordId === res.body.data.record.id)!;
    expect(event.data.quiz).toEqual({ score: 4, max: 4, pct: 100 });

    const shown = await makeForm(alice, { config: { fields: QUIZ, showQuizScore: true } });
    const shownSlug = await publish(alice, shown.id);
    const res2 = await anon().post(`/api/v1/brain/public/forms/${shownSlug}/submit`, { values: { capital: 'Lyon', sum: 4 } });
    expect(res2.body.data.quiz).toEqual({ score: 1, max: 4, pct: 25 });
  });

  it('bad public input: VALIDATION for answers and unknown body fields, 404 for unknown slugs', async () => {
    const form = await makeForm(alice);
    const slug = await publish(alice, form.id);
    const res = await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { age: 'x' } });
    expectStatus(res, 400, 'VALIDATION');
    expect(res.body.error.details.errors.map((e: any) => e.path.join('.')).sort()).toEqual(['values.age', 'values.name']);
    expectStatus(await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'A' }, respondentKey: 5 }), 400, 'VALIDATION');
    expectStatus(await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'A' }, hack: 1 }), 400, 'VALIDATION');
    expectStatus(await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'A' }, respondentName: 7 }), 400, 'VALIDATION');
    // Text PostgreSQL cannot store: 400 naming the answer, not a 500.
    const nul = await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'A\u0000' } });
    expectStatus(nul, 400, 'VALIDATION');
    expect(nul.body.error.details.errors.map((e: any) => e.path.join('.'))).toEqual(['values.name']);
    expectStatus(await anon().post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'A' }, respondentName: 'B\uDC00' }), 400, 'VALIDATION');
    expectStatus(await alice.post('/api/v1/brain/forms', { name: 'F', createDatabase: { name: 'D' }, config: { fields: [{ key: 'a', label: 'A\u0000', type: 'text' }] } }), 400, 'VALIDATION_ERROR');
    expectNotFound(await anon().post('/api/v1/brain/public/forms/unknown-slug/submit', { values: {} }));
    expectStatus(await anon().request('POST', `/api/v1/brain/public/forms/${slug}/submit`, { rawBody: 'values=1', headers: { 'content-type': 'text/plain' } }), 415);
  });
});

describe('rate limit', () => {
  it('limits the public routes per IP like the auth routes', async () => {
    const limited = await startTestApp({ RATE_LIMIT_AUTH_MAX: '3' });
    try {
      const owner = (await signUp(limited.url)).client;
      const created = await owner.post('/api/v1/brain/forms', { name: 'F', createDatabase: { name: 'D' }, config: { fields: FIELDS } });
      const slug = (await owner.post(`/api/v1/brain/forms/${created.body.data.id}/publish`, { published: true })).body.data.publicSlug;
      const client = new HttpClient(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await client.get(`/api/v1/brain/public/forms/${slug}`)).status);
      const over = await client.post(`/api/v1/brain/public/forms/${slug}/submit`, { values: { name: 'x' } });
      expect(statuses).toEqual([200, 200, 200]);
      expectStatus(over, 429, 'RATE_LIMIT_EXCEEDED');
      expect((await fetch(`${limited.url}/brain/f/${slug}`)).status).toBe(429);
      // The session routes do not count against it.
      expectStatus(await owner.get('/api/v1/brain/forms'), 200);
    } finally {
      await limited.close();
    }
  });
});
