import { beforeAll, describe, expect, it } from 'vitest';
import { ClientError } from 'graphql-request';
import { sharedTestApp, type TestApp } from './test-app.js';
import { graphqlSdk } from './graphql-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await sharedTestApp();
});

describe('accounts through the generated GraphQL SDK', () => {
  it('registers, reads me, signs out and back in', async () => {
    const sdk = graphqlSdk(app.url);
    const email = `sdk${Date.now()}_${process.pid}@example.com`;
    const password = 'correct horse battery';

    const registered = await sdk.Register({ email, password });
    expect(registered.register.user).toMatchObject({ email, emailVerifiedAt: null });

    const me = await sdk.Me();
    expect(me.me.id).toBe(registered.register.user.id);

    await sdk.Logout();
    const error = await sdk.Me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');

    const loggedIn = await sdk.Login({ email, password });
    expect(loggedIn.login.user.email).toBe(email);
    expect((await sdk.Me()).me.email).toBe(email);
  });
});

describe('graphqlSdk(baseUrl, cookie)', () => {
  it('starts signed in with a given session cookie', async () => {
    const first = graphqlSdk(app.url);
    const email = `sdkcookie${Date.now()}_${process.pid}@example.com`;
    await first.Register({ email, password: 'correct horse battery' });
    const login = await fetch(`${app.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('lp_session='));
    expect(cookie).toBeDefined();
    expect((await graphqlSdk(app.url, cookie).Me()).me.email).toBe(email);
  });
});
