import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { HttpResult } from '../support/http-client.js';

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** As `npm start` runs it: no NODE_ENV at all (vitest sets it to "test", which would hide the problem). */
async function startedLikeNpmStart(env: Record<string, string> = {}): Promise<TestApp> {
  vi.stubEnv('NODE_ENV', undefined);
  const app = await startTestApp(env);
  apps.push(app);
  return app;
}

const failures = ['{ noSuchField }', '{ unclosed', 'query { me { id } } query { me { id } }'];

function expectNoInternals(res: HttpResult) {
  expect(res.status).toBe(400);
  expect(res.body.errors.length).toBeGreaterThan(0);
  for (const error of res.body.errors) expect(error.extensions?.stacktrace).toBeUndefined();
  expect(res.text).not.toMatch(/node_modules|\/src\/|\.[jt]s:\d+|at [\w.<>]+ \(/);
}

describe('GraphQL errors without NODE_ENV', () => {
  it('carry no stack trace and no file path', async () => {
    const app = await startedLikeNpmStart();
    for (const query of failures) expectNoInternals(await app.http.graphql(query));
  });

  it('carry the stack trace when the operator asks with GRAPHQL_DEBUG=true', async () => {
    const app = await startedLikeNpmStart({ GRAPHQL_DEBUG: 'true' });
    const res = await app.http.graphql('{ noSuchField }');
    expect(res.status).toBe(400);
    expect(res.body.errors![0].extensions.stacktrace).toEqual(expect.arrayContaining([expect.stringMatching(/node_modules/)]));
  });
});
