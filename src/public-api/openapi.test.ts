import SwaggerParser from '@apidevtools/swagger-parser';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { HttpClient } from '../../test/support/http-client.js';
import { publicRoutes } from '../../rest/public-routes.js';
import { sessionRoutes } from '../../rest/session-routes.js';

let app: TestApp;
let text: string;
let doc: any;
beforeAll(async () => {
  app = await sharedTestApp();
  const res = await new HttpClient(app.url).get('/api/public/v1/openapi.yaml');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
  expect(res.headers.get('api-version')).toBe('v1');
  text = res.text;
  doc = parse(text);
});

/** `/habits/:habitId/entries` as OpenAPI writes it: `/habits/{habitId}/entries`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const resolve = (schema: any): any => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema);

describe('GET /api/public/v1/openapi.yaml', () => {
  it('is a valid OpenAPI 3.0 document (no key needed)', async () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.servers).toEqual([{ url: '/api/public/v1' }]);
  });

  it('describes every route of the route table, and nothing else', () => {
    const described = Object.entries<any>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = Object.values(publicRoutes).map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(described.sort()).toEqual(expected.sort());
    expect(expected).toHaveLength(13); // with POST /undo (docs/undo.md)
    // No session route leaks into the public description.
    for (const r of Object.values(sessionRoutes)) if (!expected.includes(`${r.method} ${r.path}`)) expect(doc.paths[r.path]?.[r.method.toLowerCase()]).toBeUndefined();
  });

  it('gives every write its JSON request schema, in the body only, without dayId', () => {
    for (const route of Object.values(publicRoutes)) {
      const op = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      expect(op.security).toEqual([{ apiKey: [] }]);
      if (route.method === 'GET') {
        expect(op.requestBody).toBeUndefined();
        continue;
      }
      const schema = op.requestBody.content['application/json'].schema;
      expect(schema.type).toBe('object');
      expect(Object.keys(schema.properties).length).toBeGreaterThan(0);
      expect(schema.properties).not.toHaveProperty('dayId');
      // Sofa repeats body variables as query parameters; the document must not.
      expect((op.parameters ?? []).filter((p: any) => p.in === 'query')).toEqual([]);
    }
  });

  it('carries the spec table\'s fields, types, ranges and defaults', () => {
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    expect(body('/water').required).toEqual(['volume']);
    expect(body('/water').properties.volume).toMatchObject({ type: 'number', minimum: 0, exclusiveMinimum: true });
    expect(body('/water').properties.time).toMatchObject({ type: 'string', format: 'date-time' });
    expect(Object.keys(body('/water').properties).sort()).toEqual(['notes', 'time', 'volume']);

    const cardio = body('/cardio');
    expect(cardio.required.sort()).toEqual(['duration', 'type']);
    expect(cardio.properties.intensity.default).toBe('easy');
    expect(resolve(cardio.properties.intensity.allOf?.[0] ?? cardio.properties.intensity).enum).toEqual(['easy', 'zone2', 'hard']);
    expect(cardio.properties.elevationGain).toMatchObject({ type: 'integer', minimum: 0 });
    expect(cardio.properties.elevationGain.exclusiveMinimum).toBeUndefined();
    for (const f of ['averageHeartRate', 'maxHeartRate', 'calories']) expect(cardio.properties[f]).toMatchObject({ type: 'integer', exclusiveMinimum: true });
    expect(Object.keys(cardio.properties).sort()).toEqual(
      ['averageHeartRate', 'calories', 'distance', 'duration', 'elevationGain', 'endTime', 'intensity', 'maxHeartRate', 'notes', 'pace', 'startTime', 'type'].sort(),
    );

    const workout = body('/workouts');
    expect(workout.required).toEqual(['splitLabel']);
    expect(workout.properties.sessionRPE).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    const exercise = resolve(workout.properties.exercises.items);
    expect(exercise.required).toEqual(['exerciseId']);
    expect(exercise.properties.exerciseId).toMatchObject({ type: 'string', format: 'uuid' });
    const set = resolve(exercise.properties.sets.items);
    expect(set.required).toEqual(['setNumber']);
    expect(Object.keys(set.properties).sort()).toEqual(['reps', 'setNumber', 'weight']);

    expect(body('/steps').properties.steps).toMatchObject({ type: 'integer', minimum: 0 });
    expect(body('/mood').required.sort()).toEqual(['energy', 'mood']);
    expect(body('/mood').properties.mood).toMatchObject({ minimum: 1, maximum: 10 });
    expect(body('/sleep').properties.quality).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    expect(body('/body-metrics').properties.bodyFat).toMatchObject({ minimum: 0, maximum: 100 });
    expect(body('/body-metrics').required).toEqual(['weight']);
    expect(body('/meditation').properties.type).toMatchObject({ type: 'string' });

    const search = doc.paths['/exercises/search'].get;
    expect(search.parameters).toEqual([expect.objectContaining({ name: 'q', in: 'query', required: false })]);
  });

  it('describes the envelope and the 400/401/429 answers, and the bearer scheme', () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const route of Object.values(publicRoutes)) {
      const op = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const ok = op.responses[String(route.responseStatus ?? 200)];
      expect(ok.content['application/json'].schema.properties.ok).toEqual({ type: 'boolean', enum: [true] });
      expect(ok.headers).toHaveProperty('x-ratelimit-reset');
      expect(op.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
      expect(op.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
      if (route.method === 'POST') expect(op.responses['400']).toEqual({ $ref: '#/components/responses/ValidationError' });
    }
    const water = resolve(doc.paths['/water'].post.responses['200'].content['application/json'].schema.properties.data);
    expect(Object.keys(water.properties).sort()).toEqual(['id', 'message', 'time', 'volume']);
    expect(doc.components.schemas.RateLimitExceeded.required.sort()).toEqual(['error', 'message', 'retryAfter', 'statusCode']);
    expect(doc.components.responses.RateLimited.headers).toHaveProperty('retry-after');
    // Only what the routes use: no session types.
    expect(Object.keys(doc.components.schemas)).not.toContain('User');
    expect(Object.keys(doc.components.schemas)).not.toContain('Task');
  });
});

describe('GET /api/public/v1/docs', () => {
  it('serves the reference page and its assets locally (no CDN)', async () => {
    const http = new HttpClient(app.url);
    const page = await http.get('/api/public/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const src of sources) {
      expect(src.startsWith('/api/public/v1/')).toBe(true);
      const asset = await http.get(src);
      expect(asset.status, src).toBe(200);
    }
    expect((await http.get('/api/public/v1/docs/init.js')).text).toContain('/api/public/v1/openapi.yaml');
    expect((await http.get('/api/public/v1/docs/assets/index.html')).status).toBe(404);
  });
});
