import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.baseUrl).toBe('http://localhost:3000');
    expect(config.defaultPlan).toBe('free');
    expect(config.jobsBackend).toBe('postgres');
    expect(config.rateLimit).toEqual({
      disabled: false,
      max: 1000,
      windowMs: 900_000,
      authMax: 100,
      authWindowMs: 900_000,
      publicApiMax: 500,
      publicApiWindowMs: 900_000,
    });
    expect(config.webhooks).toEqual({ timeoutMs: 10_000, backoffUnitMs: 60_000, allowPrivateUrls: false });
    expect(config.files.maxFileSize).toBe(10_485_760);
    expect(config.files.allowedImageTypes).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    expect(config.files.allowedDocumentTypes).toEqual(['application/pdf']);
    expect(config.files.imageProcessingMode).toBe('eager');
    expect(config.files.storageAdapter).toBe('disk');
    expect(config.trustProxy).toBe(false);
    expect(config.graphqlDebug).toBe(false);
    expect(config.http).toEqual({ keepAliveTimeoutMs: 65_000, headersTimeoutMs: 66_000 });
  });

  it('keeps HTTP connections longer than a proxy in front, and the headers timeout above the keep-alive one', () => {
    expect(loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '200' }).http).toEqual({ keepAliveTimeoutMs: 200, headersTimeoutMs: 1_200 });
    expect(loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000', HTTP_HEADERS_TIMEOUT_MS: '80000' }).http).toEqual({ keepAliveTimeoutMs: 75_000, headersTimeoutMs: 80_000 });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '65000' })).toThrow('Invalid setting HTTP_HEADERS_TIMEOUT_MS: must be above HTTP_KEEP_ALIVE_TIMEOUT_MS (65000)');
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
  });

  it('bounds an import chunk in time (IMPORT_CHUNK_MS): 3000 by default, 1 to 20000 (a third of the import lock)', () => {
    expect(loadConfig({}).importChunkMs).toBe(3_000);
    expect(loadConfig({ IMPORT_CHUNK_MS: '1' }).importChunkMs).toBe(1);
    expect(() => loadConfig({ IMPORT_CHUNK_MS: '0' })).toThrow('Invalid setting IMPORT_CHUNK_MS: must be at least 1');
    expect(() => loadConfig({ IMPORT_CHUNK_MS: '20001' })).toThrow('Invalid setting IMPORT_CHUNK_MS: must be at most 20000');
  });

  it('hashes passwords at the standard argon2id cost unless PASSWORD_HASH_COST=test, which production refuses', () => {
    expect(loadConfig({}).passwordHashCost).toBe('standard');
    expect(loadConfig({ NODE_ENV: 'production' }).passwordHashCost).toBe('standard');
    expect(loadConfig({ PASSWORD_HASH_COST: 'test' }).passwordHashCost).toBe('test');
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_COST: 'test' })).toThrow(
      'Invalid setting PASSWORD_HASH_COST: "test" is for test runs and refused with NODE_ENV=production',
    );
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'cheap' })).toThrow('Invalid setting PASSWORD_HASH_COST: expected one of standard, test, got "cheap"');
  });

  it('runs on the real clock unless TEST_CLOCK pins an instant, which production refuses', () => {
    expect(loadConfig({}).testClock).toBeUndefined();
    expect(loadConfig({ TEST_CLOCK: '2032-03-17T12:00:00Z' }).testClock?.toISOString()).toBe('2032-03-17T12:00:00.000Z');
    expect(() => loadConfig({ NODE_ENV: 'production', TEST_CLOCK: '2032-03-17T12:00:00Z' })).toThrow('Invalid setting TEST_CLOCK: is for test runs and refused with NODE_ENV=production');
    expect(() => loadConfig({ TEST_CLOCK: 'tomorrow' })).toThrow('Invalid setting TEST_CLOCK: "tomorrow" is not an ISO 8601 instant');
  });

  it('reuses /readyz probes of remote services for READYZ_PROBE_CACHE_MS: 5000 by default, 0 = never', () => {
    expect(loadConfig({}).readyzProbeCacheMs).toBe(5_000);
    expect(loadConfig({ READYZ_PROBE_CACHE_MS: '0' }).readyzProbeCacheMs).toBe(0);
    expect(() => loadConfig({ READYZ_PROBE_CACHE_MS: '-1' })).toThrow('Invalid setting READYZ_PROBE_CACHE_MS');
  });

  it('reads TRUST_PROXY as express reads trust proxy: a boolean, a hop count, or addresses and subnets', () => {
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, 192.168.1.0/255.255.255.0, fd00::/8, 203.0.113.7' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '192.168.1.0/255.255.255.0',
      'fd00::/8',
      '203.0.113.7',
    ]);
    expect(loadConfig({ GRAPHQL_DEBUG: 'true' }).graphqlDebug).toBe(true);
  });

  it('reads settings from the environment', () => {
    const config = loadConfig({
      PORT: '0',
      BASE_URL: 'https://plan.example.com/',
      DISABLE_RATE_LIMIT: 'true',
      ALLOWED_IMAGE_TYPES: 'image/png, image/webp',
      DEFAULT_PLAN: 'pro',
    });
    expect(config.port).toBe(0);
    expect(config.baseUrl).toBe('https://plan.example.com');
    expect(config.rateLimit.disabled).toBe(true);
    expect(config.files.allowedImageTypes).toEqual(['image/png', 'image/webp']);
    expect(config.defaultPlan).toBe('pro');
  });

  it('reads the per-person budget of distinct live subscriptions (20 by default)', () => {
    expect(loadConfig({}).live.maxDistinctSubscriptionsPerUser).toBe(20);
    expect(loadConfig({ LIVE_MAX_DISTINCT_SUBSCRIPTIONS_PER_USER: '5' }).live.maxDistinctSubscriptionsPerUser).toBe(5);
    expect(() => loadConfig({ LIVE_MAX_DISTINCT_SUBSCRIPTIONS_PER_USER: '0' })).toThrow(ConfigError);
  });

  it('reads the per-account second-factor lock (10 wrong answers lock for 15 minutes, waits after 5)', () => {
    expect(loadConfig({}).secondFactorLock).toEqual({ maxFailures: 10, lockMs: 900_000, freeFailures: 5 });
    expect(loadConfig({ SECOND_FACTOR_MAX_FAILURES: '6', SECOND_FACTOR_LOCK_MS: '60000', SECOND_FACTOR_FREE_FAILURES: '2' }).secondFactorLock).toEqual({ maxFailures: 6, lockMs: 60_000, freeFailures: 2 });
    expect(() => loadConfig({ SECOND_FACTOR_FREE_FAILURES: '10' })).toThrow('Invalid setting SECOND_FACTOR_FREE_FAILURES');
    expect(() => loadConfig({ SECOND_FACTOR_MAX_FAILURES: '1' })).toThrow('Invalid setting SECOND_FACTOR_MAX_FAILURES');
    expect(() => loadConfig({ SECOND_FACTOR_LOCK_MS: 'soon' })).toThrow('Invalid setting SECOND_FACTOR_LOCK_MS');
  });

  it('reads TRUSTED_ORIGINS as a list of origins (none by default)', () => {
    expect(loadConfig({}).trustedOrigins).toEqual([]);
    const config = loadConfig({ TRUSTED_ORIGINS: 'https://App.Example.com/, http://localhost:5173 ,https://x.example.com:443' });
    expect(config.trustedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173', 'https://x.example.com']);
  });

  it('reads the OpenID Connect settings (off without OIDC_ISSUER)', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig({}).passwordSignInDisabled).toBe(false);
    const config = loadConfig({
      OIDC_ISSUER: 'https://id.example.com/realms/home',
      OIDC_CLIENT_ID: 'life-planner',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_ALLOWED_EMAIL_DOMAINS: 'Example.com, @family.example ',
      OIDC_AUTO_CREATE: 'true',
      PASSWORD_SIGN_IN_DISABLED: 'true',
    });
    expect(config.oidc).toEqual({
      issuer: 'https://id.example.com/realms/home',
      clientId: 'life-planner',
      clientSecret: 's3cret',
      allowedEmailDomains: ['example.com', 'family.example'],
      autoCreate: true,
      buttonLabel: 'Sign in with single sign-on',
      timeoutMs: 10_000,
    });
    expect(config.passwordSignInDisabled).toBe(true);
    const minimal = loadConfig({ OIDC_ISSUER: 'http://127.0.0.1:9999', OIDC_CLIENT_ID: 'x', OIDC_BUTTON_LABEL: 'Sign in with Authelia' });
    expect(minimal.oidc).toMatchObject({ clientSecret: undefined, allowedEmailDomains: [], autoCreate: false, buttonLabel: 'Sign in with Authelia' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ OIDC_ISSUER: 'https://id.example.com' }, 'OIDC_CLIENT_ID'],
    [{ OIDC_CLIENT_ID: 'x' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'ftp://id.example.com', OIDC_CLIENT_ID: 'x' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x', OIDC_ALLOWED_EMAIL_DOMAINS: 'example.com, *.example.org' }, 'OIDC_ALLOWED_EMAIL_DOMAINS'],
    [{ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'x', OIDC_AUTO_CREATE: 'maybe' }, 'OIDC_AUTO_CREATE'],
    [{ PASSWORD_SIGN_IN_DISABLED: 'true' }, 'PASSWORD_SIGN_IN_DISABLED'],
    [{ PORT: '70000' }, 'PORT'],
    [{ RATE_LIMIT_MAX: '1.5' }, 'RATE_LIMIT_MAX'],
    [{ DISABLE_RATE_LIMIT: 'yes' }, 'DISABLE_RATE_LIMIT'],
    [{ IMAGE_PROCESSING_MODE: 'sometimes' }, 'IMAGE_PROCESSING_MODE'],
    [{ FILE_STORAGE_ADAPTER: 'ftp' }, 'FILE_STORAGE_ADAPTER'],
    [{ DEFAULT_PLAN: 'gold' }, 'DEFAULT_PLAN'],
    [{ JOBS_BACKEND: 'mongo' }, 'MONGODB_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ BASE_URL: 'not a url' }, 'BASE_URL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'loopback, 300.1.1.1' }, 'TRUST_PROXY'],
    [{ GRAPHQL_DEBUG: 'sometimes' }, 'GRAPHQL_DEBUG'],
    [{ TRUSTED_ORIGINS: 'app.example.com' }, 'TRUSTED_ORIGINS'],
    [{ TRUSTED_ORIGINS: 'https://ok.example.com, https://app.example.com/path' }, 'TRUSTED_ORIGINS'],
    [{ TRUSTED_ORIGINS: 'ftp://files.example.com' }, 'TRUSTED_ORIGINS'],
    [{ TRUSTED_ORIGINS: 'https://*.example.com' }, 'TRUSTED_ORIGINS'],
  ])('refuses %o naming %s', (env, setting) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).setting).toBe(setting);
      expect((error as Error).message).toMatch(new RegExp(`^Invalid setting ${setting}: `));
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
