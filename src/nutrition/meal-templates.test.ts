import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { makeImage, makePdf, upload } from '../files/files.test-helpers.js';
import { createTemplate, expectNotFound, expectRule, expectValidation, MISSING_ID } from './nutrition.test-helpers.js';

let app: TestApp;
let alice: HttpClient;
let bob: HttpClient;
let aliceImage: any;
let bobImage: any;

beforeAll(async () => {
  app = await startTestApp({ IMAGE_PROCESSING_MODE: 'lazy' });
  ({ client: alice } = await signUp(app.url));
  ({ client: bob } = await signUp(app.url));
  aliceImage = (await upload(alice, await makeImage('jpeg', 40, 30), 'image', 'chili.jpg')).body.data;
  bobImage = (await upload(bob, await makeImage('jpeg', 40, 30), 'image', 'bob.jpg')).body.data;
});
afterAll(async () => {
  await app?.close();
});

const FULL = {
  name: '  Lentil curry ',
  ingredients: [
    { name: ' Red lentils ', quantity: 250, unit: 'g', section: 'pantry' },
    { name: 'Salt' },
  ],
  instructions: 'Simmer 20 minutes.',
  servings: 4,
};

describe('meal templates (REST)', () => {
  it('creates (201), reads, lists, updates and deletes a template', async () => {
    const created = await alice.post('/api/v1/meal-templates', { ...FULL, imageFileId: aliceImage.id });
    expect(created.status, created.text).toBe(201);
    const t = created.body.data;
    expect(t).toMatchObject({
      name: 'Lentil curry',
      ingredients: [
        { name: 'Red lentils', quantity: 250, unit: 'g', section: 'pantry' },
        { name: 'Salt', quantity: null, unit: '', section: '' },
      ],
      instructions: 'Simmer 20 minutes.',
      imageFileId: aliceImage.id,
      servings: 4,
    });
    expect((await alice.get(`/api/v1/meal-templates/${t.id}`)).body.data).toEqual(t);

    const list = await alice.get('/api/v1/meal-templates');
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: any) => x.id)).toContain(t.id);
    expect(list.body.meta).toMatchObject({ page: 1, limit: 50 });

    const patched = await alice.patch(`/api/v1/meal-templates/${t.id}`, { name: 'Dal', ingredients: [{ name: 'Rice', quantity: 1.5, unit: 'cup' }], servings: null, imageFileId: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Dal', ingredients: [{ name: 'Rice', quantity: 1.5, unit: 'cup', section: '' }], servings: null, imageFileId: null, instructions: 'Simmer 20 minutes.' });

    const removed = await alice.delete(`/api/v1/meal-templates/${t.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: t.id, message: 'Meal template deleted' });
    expectNotFound(await alice.get(`/api/v1/meal-templates/${t.id}`));
  });

  it('paginates the list', async () => {
    const { client } = await signUp(app.url);
    for (let i = 0; i < 3; i++) await createTemplate(client, { name: `T${i}` });
    const page = await client.get('/api/v1/meal-templates?limit=2&page=2');
    expect(page.body.data.map((x: any) => x.name)).toEqual(['T2']);
    expect(page.body.meta).toEqual({ page: 2, limit: 2, total: 3 });
  });

  it('refuses bad input with 400 naming the field, and stores nothing', async () => {
    const { client } = await signUp(app.url);
    expectValidation(await client.post('/api/v1/meal-templates', {}), 'name');
    expectValidation(await client.post('/api/v1/meal-templates', { name: '   ' }), 'name');
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', ingredients: [{ quantity: 1 }] }), 'ingredients');
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', ingredients: [{ name: 'a', quantity: 0 }] }), 'ingredients');
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', ingredients: [{ name: 'a', quantity: -2 }] }), 'ingredients');
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', ingredients: [{ name: 'a', quantity: '2' }] }));
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', ingredients: 'beans' }));
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', servings: 2.5 }));
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', servings: 0 }), 'servings');
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'x', imageFileId: 'not-a-uuid' }));
    expectValidation(await client.post('/api/v1/meal-templates', { name: 'a\u0000b' }), 'name');
    expect((await client.get('/api/v1/meal-templates')).body.data).toEqual([]);

    const t = await createTemplate(client);
    expectValidation(await client.patch(`/api/v1/meal-templates/${t.id}`, { name: null }), 'name');
    expectValidation(await client.patch(`/api/v1/meal-templates/${t.id}`, { ingredients: null }), 'ingredients');
    expectValidation(await client.patch(`/api/v1/meal-templates/${t.id}`, { ingredients: [{ name: 'a', quantity: 0 }] }), 'ingredients');
    expectValidation(await client.get('/api/v1/meal-templates/not-a-uuid'));
    expect((await client.get(`/api/v1/meal-templates/${t.id}`)).body.data).toEqual(t);
  });

  it('takes only an image file of the caller: another user\'s or a missing file is 404 naming imageFileId, a document 400', async () => {
    expectNotFound(await alice.post('/api/v1/meal-templates', { name: 'x', imageFileId: bobImage.id }), 'imageFileId');
    expectNotFound(await alice.post('/api/v1/meal-templates', { name: 'x', imageFileId: MISSING_ID }), 'imageFileId');
    const pdf = (await upload(alice, makePdf(), 'document', 'recipe.pdf', 'application/pdf')).body.data;
    expectRule(await alice.post('/api/v1/meal-templates', { name: 'x', imageFileId: pdf.id }), 'file_type');
    const t = await createTemplate(alice, { name: 'Mine' });
    expectNotFound(await alice.patch(`/api/v1/meal-templates/${t.id}`, { imageFileId: bobImage.id }), 'imageFileId');
    expect((await alice.get(`/api/v1/meal-templates/${t.id}`)).body.data.imageFileId).toBeNull();
  });

  it("hides another user's template: GET, PATCH and DELETE answer 404 like a missing one", async () => {
    const t = await createTemplate(alice, { name: 'Secret' });
    for (const id of [t.id, MISSING_ID]) {
      expectNotFound(await bob.get(`/api/v1/meal-templates/${id}`));
      expectNotFound(await bob.patch(`/api/v1/meal-templates/${id}`, { name: 'Mine' }));
      expectNotFound(await bob.delete(`/api/v1/meal-templates/${id}`));
    }
    expect((await bob.get('/api/v1/meal-templates')).body.data.map((x: any) => x.id)).not.toContain(t.id);
    expect((await alice.get(`/api/v1/meal-templates/${t.id}`)).body.data.name).toBe('Secret');
  });

  it('deleting the image file clears imageFileId', async () => {
    const image = (await upload(alice, await makeImage('png', 20, 20), 'image', 'x.png', 'image/png')).body.data;
    const t = await createTemplate(alice, { imageFileId: image.id });
    expect((await alice.delete(`/api/v1/files/${image.id}`)).status).toBe(200);
    expect((await alice.get(`/api/v1/meal-templates/${t.id}`)).body.data.imageFileId).toBeNull();
  });
});
