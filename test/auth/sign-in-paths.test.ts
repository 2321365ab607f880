import { createServer, type Server } from 'node:http';
import { getNamedType } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.js';
import { HttpClient, signUp } from '../support/http-client.js';
import { sql } from '../support/db.js';
import { startConnectorApp } from '../../src/connector/connector.test-helpers.js';
import { enableTotp, freshTimeStep } from '../../src/accounts/two-factor/two-factor.test-helpers.js';
import { buildAppSchema } from '../../src/app/schema.js';
import { operationNeedsSession } from '../../src/core/authorization.js';
import { NOT_SIGN_IN_PATHS, seen, SIGN_IN_PATHS, type SeenAnswer, type SignInPathContext } from './sign-in-paths.js';

let app: TestApp;
let base: string;
let callback: Server;
let redirectUri: string;
let clientId: string;

beforeAll(async () => {
  app = await startConnectorApp();
  base = app.server.deps.config.baseUrl;
  callback = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Paths', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
  });
  clientId = ((await registered.json()) as { client_id: string }).client_id;
});
afterAll(async () => {
  callback?.close();
  await app?.close();
});
beforeEach(() => freshTimeStep());

const sessions = async (userId: string) => Number((await sql(base && app.databaseUrl, 'select count(*)::int as n from login_sessions where user_id = $1', [userId]))[0]!.n);
const sessionCookie = (answer: SeenAnswer) => answer.setCookie.map((c) => c.split(';')[0]!).find((pair) => pair.startsWith('lp_session=') && pair !== 'lp_session=');

async function twoFactorUser(): Promise<SignInPathContext['user']> {
  const user = await signUp(base);
  const { secret, recoveryCodes } = await enableTotp(user.client);
  return { id: user.id, email: user.email, password: user.password, totpSecret: secret, recoveryCodes };
}

describe('every sign-in path', () => {
  it.each(SIGN_IN_PATHS.map((path) => [path.name, path] as const))('%s: no session before every factor passed, one after', async (_name, path) => {
    const user = await twoFactorUser();
    const before = await sessions(user.id);
    const attempt = await path.start({ base, user, connectorClientId: clientId, connectorRedirectUri: redirectUri });
    expect(attempt.before.length).toBeGreaterThan(0);
    for (const answer of attempt.before) expect(sessionCookie(answer), JSON.stringify(answer.setCookie)).toBeUndefined();
    expect(await sessions(user.id)).toBe(before);

    const finished = await attempt.finish();
    const cookie = sessionCookie(finished);
    expect(cookie, `finish answered ${finished.status}`).toBeDefined();
    expect(await sessions(user.id)).toBe(before + 1);
    const me = new HttpClient(base);
    me.cookie = cookie;
    expect((await me.get('/api/v1/auth/me')).body.data.id).toBe(user.id);
  });

  it('registering the address of an account with two-factor is refused without a session', async () => {
    const user = await twoFactorUser();
    const before = await sessions(user.id);
    const res = await seen(await fetch(`${base}/api/v1/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email.toUpperCase(), password: user.password }) }));
    expect(res.status).toBe(409);
    expect(sessionCookie(res)).toBeUndefined();
    expect(await sessions(user.id)).toBe(before);
  });

  it('are all in the table: each anonymous mutation answering AuthPayload is walked or named as starting no session', async () => {
    const schema = await buildAppSchema();
    const signIns = Object.values(schema.getMutationType()!.getFields())
      .filter((field) => getNamedType(field.type).name === 'AuthPayload' && !operationNeedsSession(field.name))
      .map((field) => field.name);
    const walked = new Set(SIGN_IN_PATHS.flatMap((path) => path.operations));
    expect(signIns.filter((name) => !walked.has(name) && !(name in NOT_SIGN_IN_PATHS)), 'add a path to test/auth/sign-in-paths.ts').toEqual([]);
  });
});
