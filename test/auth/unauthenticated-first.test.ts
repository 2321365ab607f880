import { beforeAll, describe, expect, it } from 'vitest';
import { getNamedType, isLeafType, isNonNullType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { sharedTestApp, type TestApp } from '../support/test-app.js';
import { HttpClient } from '../support/http-client.js';
import { sessionRoutes } from '../../rest/session-routes.js';
import { publicRoutes } from '../../rest/public-routes.js';
import { handWrittenPaths } from '../../src/app/hand-written-routes.js';
import { buildAppSchema } from '../../src/app/schema.js';
import { operationNeedsSession } from '../../src/core/authorization.js';

/*
 * Issue 34, item 11: without a session (or a key), every operation that needs one answers 401 before its
 * input is read, on every surface. The routes and operations are read from the route tables, the
 * hand-written groups' descriptions and the schema, so a new one is swept without being listed here.
 */

const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const fill = (path: string) => path.replace(/:[A-Za-z_]\w*/g, PLACEHOLDER_ID).replace(/\{[^}]+\}/g, PLACEHOLDER_ID);
const withBody = (method: string) => method !== 'GET' && method !== 'HEAD';

/** Each refused exchange as `METHOD path → status code`, to show every one that is not a 401. */
async function sweep(client: HttpClient, requests: { method: string; path: string }[], headers: Record<string, string> = {}): Promise<string[]> {
  const answers: string[] = [];
  for (const { method, path } of requests) {
    const res = await client.request(method, path, { ...(withBody(method) ? { body: {} } : {}), headers, outsideContract: true });
    if (res.status !== 401) answers.push(`${method} ${path} → ${res.status} ${res.body?.error?.code ?? res.text.slice(0, 80)}`);
  }
  return answers;
}

/** An operation with every argument a variable and no variable sent: a body that names nothing. */
function emptyVariablesOperation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${kind}${variables ? `(${variables})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`;
}

describe('401 before the input is read, on every surface', () => {
  let app: TestApp;
  let schema: GraphQLSchema;
  beforeAll(async () => {
    [app, schema] = await Promise.all([sharedTestApp(), buildAppSchema()]);
  });

  it('answers 401 to an anonymous {} on every Session API route that needs a session', async () => {
    const routes = Object.entries(sessionRoutes).filter(([operation]) => operationNeedsSession(operation.split('.')[1]!));
    expect(routes.length).toBeGreaterThan(150);
    const anonymous = new HttpClient(app.url);
    const refused = await sweep(anonymous, routes.map(([, route]) => ({ method: route.method, path: `/api/v1${fill(route.path)}` })));
    expect(refused).toEqual([]);
  });

  it('answers 401 to an anonymous {} on every hand-written route described with the session', async () => {
    const requests = Object.entries(handWrittenPaths()).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { security?: unknown[] }>)
        .filter(([, operation]) => !Array.isArray(operation.security) || operation.security.length > 0)
        .map(([method]) => ({ method: method.toUpperCase(), path: `/api/v1${fill(path)}` })),
    );
    expect(requests.length).toBeGreaterThan(10);
    expect(await sweep(new HttpClient(app.url), requests)).toEqual([]);
  });

  it('answers 401 to {} without a key on every Public API route', async () => {
    const requests = Object.values(publicRoutes).map((route) => ({ method: route.method, path: `/api/public/v1${fill(route.path)}` }));
    expect(await sweep(new HttpClient(app.url), requests)).toEqual([]);
  });

  it('answers UNAUTHORIZED to every GraphQL operation that needs a session, sent anonymously with no variables', async () => {
    const anonymous = new HttpClient(app.url);
    const refused: string[] = [];
    const roots = [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const;
    let swept = 0;
    for (const [kind, type] of roots) {
      for (const field of Object.values(type.getFields())) {
        if (!operationNeedsSession(field.name) || !field.args.some((arg) => isNonNullType(arg.type))) continue;
        swept++;
        const res = await anonymous.graphql(emptyVariablesOperation(kind, field), {});
        const code = res.body.errors?.[0]?.extensions?.code;
        if (code !== 'UNAUTHORIZED') refused.push(`${field.name} → ${res.status} ${code} ${res.body.errors?.[0]?.message ?? ''}`);
      }
    }
    expect(swept).toBeGreaterThan(100);
    expect(refused).toEqual([]);
  });
});
