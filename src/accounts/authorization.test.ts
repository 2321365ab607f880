import { beforeAll, describe, expect, it } from 'vitest';
import { getMetadataStorage, Query, Resolver } from 'type-graphql';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { buildAppSchema } from '../app/schema.js';
import { resolvers } from '../app/resolvers.js';
import { buildGraphQLSchema } from '../graphql/build-schema.js';
import { operationNeedsSession, operationPlanFeatures, operationRoles } from '../core/authorization.js';
import { authChecker } from './auth-checker.js';

/** Planted: an operation whose class forgot `@Authorized`. */
@Resolver()
class ForgotAuthorizedResolver {
  @Query(() => String)
  plantedOpenOperation(): string {
    return 'open';
  }
}

const rootOperations = () => {
  const storage = getMetadataStorage();
  return [...storage.queries, ...storage.mutations].filter((r) => (resolvers as Function[]).includes(r.target)).map((r) => r.schemaName);
};

describe('who may run each operation is declared with @Authorized', () => {
  beforeAll(async () => {
    await buildAppSchema();
  });

  it('declares access on every root operation: anonymous ones by name, the Public API for a key or a session, the plan-gated ones', () => {
    const operations = rootOperations();
    expect(operations.length).toBeGreaterThan(150);
    const byAccess = (pick: (field: string) => boolean) => operations.filter(pick).sort();
    expect(operations.filter((field) => operationRoles(field) === undefined)).toEqual([]);
    expect(byAccess((field) => operationRoles(field)!.includes('anonymous'))).toEqual(
      // (the second step of a two-factor sign-in and a passkey sign-in have no session yet either; the
      // sign-in methods are read before signing in)
      [
        'completeSignIn', 'completeSignInWithPasskey', 'finishPasskeySignIn', 'login', 'logout', 'register', 'requestPasswordReset',
        'resendVerification', 'resetPassword', 'signInMethods', 'startPasskeySignIn', 'startSecondFactorPasskey', 'verifyEmail',
      ],
    );
    expect(byAccess((field) => operationRoles(field)!.includes('api-caller'))).toEqual(operations.filter((field) => field.startsWith('public')).sort());
    expect(byAccess((field) => operationPlanFeatures(field).length > 0).map((field) => `${field}:${operationPlanFeatures(field).join()}`)).toEqual([
      'createApiKey:api_keys', 'createWebhook:webhooks', 'deleteWebhook:webhooks', 'rotateApiKey:api_keys',
      'testWebhook:webhooks', 'updateWebhook:webhooks', 'webhookDeliveries:webhooks', 'webhooks:webhooks',
    ]);
    expect(operationNeedsSession('me')).toBe(true);
    expect(operationNeedsSession('login')).toBe(false);
    expect(operationNeedsSession('publicLogWater')).toBe(false);
  });

  it('refuses to build a schema in which an operation declares no access', async () => {
    await expect(buildGraphQLSchema({ resolvers: [ForgotAuthorizedResolver], listBounds: {}, authChecker })).rejects.toThrow(
      'Operations without @Authorized (add it to the class, or @Anonymous() to the method): ForgotAuthorizedResolver.plantedOpenOperation',
    );
  });
});

describe('the check runs before the resolver', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await sharedTestApp();
  });

  it('answers 401 without a session, before the arguments are read, on GraphQL and REST', async () => {
    const { client } = await signUp(app.url);
    const anonymous = client.withoutCookie();
    const graphql = await anonymous.graphql('mutation { createTaskCategory(name: "   ", color: "not a colour") { id } }');
    expect(graphql.body.errors![0].extensions).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    const rest = await anonymous.post('/api/v1/task-categories', { name: '   ', color: 'not a colour' });
    expect(rest.status).toBe(401);
    expect(rest.body.error.code).toBe('UNAUTHORIZED');
    // Signed in, the same arguments are refused for what they are.
    const invalid = await client.post('/api/v1/task-categories', { name: '   ', color: 'not a colour' });
    expect(invalid.status).toBe(400);
  });

  it('answers 403 SUBSCRIPTION_REQUIRED to a free plan on a plan-gated operation, and lets it use the rest', async () => {
    const { client } = await signUp(app.url);
    const gated = await client.post('/api/v1/webhooks', { url: 'https://example.com/hook', events: ['task.created'] });
    expect(gated.status).toBe(403);
    expect(gated.body.error.code).toBe('SUBSCRIPTION_REQUIRED');
    const key = await client.graphql('mutation { createApiKey(name: "k") { key } }');
    expect(key.body.errors![0].extensions.code).toBe('SUBSCRIPTION_REQUIRED');
    const keys = await client.get('/api/v1/api-keys');
    expect(keys.status).toBe(200);
  });

  it('lets anyone run an operation declared @Anonymous()', async () => {
    const anonymous = (await signUp(app.url)).client.withoutCookie();
    const res = await anonymous.post('/api/v1/auth/request-password-reset', { email: 'nobody@example.com' });
    expect(res.status).toBe(200);
  });
});
