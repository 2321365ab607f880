import { isIP } from 'node:net';
import { resolve } from 'node:path';

/** A bad setting stops the start with one line naming it (operations.md). */
export class ConfigError extends Error {
  constructor(readonly setting: string, problem: string) {
    super(`Invalid setting ${setting}: ${problem}`);
  }
}

export type Plan = 'free' | 'pro';

export interface HttpTimeoutSettings {
  /**
   * HTTP_KEEP_ALIVE_TIMEOUT_MS: how long an idle keep-alive connection is kept. Above the idle timeout of
   * a proxy in front (nginx and cloud load balancers keep 60 s), so the proxy, not the service, closes it:
   * a request it sends as the service closes would be reset (a 502).
   */
  keepAliveTimeoutMs: number;
  /** HTTP_HEADERS_TIMEOUT_MS: how long a request's headers may take to arrive; above the keep-alive timeout. */
  headersTimeoutMs: number;
}

/** Node's own 5 s keep-alive closed connections a proxy or a pooling client was about to reuse (issue 34, item 16). */
function readHttpTimeouts(env: Env): HttpTimeoutSettings {
  const keepAliveTimeoutMs = readInt(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1);
  const headersTimeoutMs = readInt(env, 'HTTP_HEADERS_TIMEOUT_MS', keepAliveTimeoutMs + 1_000, 1);
  // Node's advice: a headers timeout at or below the keep-alive one cuts off a request that arrives on a
  // connection at the end of its idle time.
  if (headersTimeoutMs <= keepAliveTimeoutMs) throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must be above HTTP_KEEP_ALIVE_TIMEOUT_MS (${keepAliveTimeoutMs})`);
  return { keepAliveTimeoutMs, headersTimeoutMs };
}

export interface Config {
  /** PORT: the HTTP port; 0 takes any free port and logs the one it took. */
  port: number;
  /** HOST: the address to listen on (the docker image sets 0.0.0.0). */
  host: string;
  /** BASE_URL: the service's public address, used in links, mails, OAuth metadata and file URLs; https makes the session cookie `Secure`. */
  baseUrl: string;
  /** False when BASE_URL is unset: the base URL then follows the port actually taken (PORT=0). */
  baseUrlConfigured: boolean;
  /** DATABASE_URL: an existing PostgreSQL; unset: an embedded PostgreSQL under DATA_DIR/pg, started and stopped with the service. */
  databaseUrl: string | undefined;
  /** DATA_DIR: the embedded database, generated secrets and the mail outbox. */
  dataDir: string;
  /** JWT_SECRET (default generated once into DATA_DIR): signs session tokens. */
  jwtSecret: string | undefined;
  /** DEFAULT_PLAN: the plan new users get: `free` (no API keys, webhooks or assistant connector) or `pro`. */
  defaultPlan: Plan;
  /** JOBS_BACKEND: where Agenda keeps its jobs: `postgres` (the same database) or `mongo`. */
  jobsBackend: 'postgres' | 'mongo';
  /** MONGODB_URL: the job store; required when JOBS_BACKEND=mongo. */
  mongodbUrl: string | undefined;
  /** REDIS_URL: rate-limit counters and the live bus shared by every instance; while it is down each instance counts and delivers on its own. */
  redisUrl: string | undefined;
  /** SMTP_URL: the mail server; unset: each mail is written as an `.eml` file into MAIL_OUTBOX_DIR. */
  smtpUrl: string | undefined;
  /** MAIL_OUTBOX_DIR: where mails are written without SMTP_URL. */
  mailOutboxDir: string;
  /** LOG_LEVEL: the least severe level written to the JSON logs. */
  logLevel: string;
  /**
   * TRUST_PROXY (default `false`): Express's `trust proxy`, which proxies' X-Forwarded-For gives the client
   * address: `true`, the number of proxies in front, or their addresses and subnets (comma-separated).
   */
  trustProxy: TrustProxy;
  /** GRAPHQL_DEBUG: GraphQL errors carry stack traces (never by default, whatever NODE_ENV says). */
  graphqlDebug: boolean;

  /** TRUSTED_ORIGINS: other origins (`scheme://host[:port]`, comma-separated) allowed to send cookie-authenticated writes. */
  trustedOrigins: string[];
  /** SHUTDOWN_DRAIN_MS: after SIGTERM, how long open connections are still answered (with `Connection: close`). */
  shutdownDrainMs: number;
  /** PASSWORD_HASH_COST: argon2id at OWASP's minimum (`standard`), or at its least for test runs (`test`). */
  passwordHashCost: 'standard' | 'test';
  /**
   * TEST_CLOCK: for test runs only (refused with NODE_ENV=production): an ISO 8601 instant the app's
   * clock starts at and runs on from (`AppDeps.clock`: the habits' today), so tests of dates do not depend on the day they run.
   */
  testClock?: Date;
  /** How long HTTP connections may idle and how long a request's headers may take (src/http/connection-timeouts.ts). */
  http: HttpTimeoutSettings;
  /**
   * IMPORT_CHUNK_MS: an import's committed chunk takes no more rows once it has run this long (it ends
   * with the batch in progress); at most 20 s, a third of the import's 60 s lock.
   */
  importChunkMs: number;
  /**
   * READYZ_PROBE_CACHE_MS: how long /readyz reuses a remote dependency's probe (SMTP, S3, the OIDC
   * provider), so a /readyz flood asks each at most this often; 0: every /readyz asks.
   */
  readyzProbeCacheMs: number;
  rateLimit: {
    /** DISABLE_RATE_LIMIT: turns the request rate limits off (not the second-factor lock). */
    disabled: boolean;
    /** RATE_LIMIT_MAX: session API requests per window and client address. */
    max: number;
    /** RATE_LIMIT_TIME_WINDOW: its window, in milliseconds. */
    windowMs: number;
    /** RATE_LIMIT_AUTH_MAX: auth mutations (register, login, password resets…) per window and client address. */
    authMax: number;
    /** RATE_LIMIT_AUTH_TIME_WINDOW: its window, in milliseconds. */
    authWindowMs: number;
    /** RATE_LIMIT_PUBLIC_API_MAX: Public API requests per window and API key. */
    publicApiMax: number;
    /** RATE_LIMIT_PUBLIC_API_TIME_WINDOW: its window, in milliseconds. */
    publicApiWindowMs: number;
  };
  webhooks: {
    /** WEBHOOK_TIMEOUT_MS: how long a webhook delivery waits for the receiver. */
    timeoutMs: number;
    /** WEBHOOK_BACKOFF_UNIT_MS: retry waits are 1, 2, 4, 8 and 16 of this unit. */
    backoffUnitMs: number;
    /** WEBHOOK_ALLOW_PRIVATE_URLS: accept webhook URLs whose host is or resolves to a loopback, private or link-local address (refused at create and at delivery otherwise). */
    allowPrivateUrls: boolean;
  };
  /** Wrong second factors counted per account across sign-in steps (src/accounts/sign-in/second-factor-lockout.ts). */
  secondFactorLock: SecondFactorLockSettings;
  /** Reminders (issue 26): the scan, Web Push's VAPID identity, the sends' timeout, backoff and SSRF guard. */
  reminders: ReminderSettings;
  /** Live updates (issue 27): GraphQL subscriptions over WebSocket and the SSE feed. */
  live: LiveSettings;
  answerCache: AnswerCacheSettings;
  /** SYNC_RETENTION_DAYS: how long the change feed keeps a change (docs/sync.md); a cursor older than that answers 410 and the client reads everything again. */
  syncRetentionDays: number;
  /** OpenID Connect sign-in (issue 28); null when OIDC_ISSUER is unset. */
  oidc: OidcSettings | null;
  /** PASSWORD_SIGN_IN_DISABLED: only with OIDC on; password sign-in and registration are refused. */
  passwordSignInDisabled: boolean;
  files: {
    /** MAX_FILE_SIZE: the largest upload, in bytes. */
    maxFileSize: number;
    /** ALLOWED_IMAGE_TYPES: MIME types accepted as images. */
    allowedImageTypes: string[];
    /** ALLOWED_DOCUMENT_TYPES: MIME types accepted as documents. */
    allowedDocumentTypes: string[];
    /** IMAGE_PROCESSING_MODE: an image's variants are queued at upload (`eager`) or made on first request (`lazy`). */
    imageProcessingMode: 'eager' | 'lazy';
    /** FILE_STORAGE_ADAPTER: where file bytes live: `disk` (FILE_UPLOAD_DIR) or `s3` (S3_*). */
    storageAdapter: 'disk' | 's3';
    /** FILE_UPLOAD_DIR: the `disk` adapter's directory. */
    uploadDir: string;
    /** The `s3` adapter (operations.md S3_*); null when S3_BUCKET is unset. */
    s3: S3Settings | null;
  };
}

export interface ReminderSettings {
  /** REMINDER_SCAN_INTERVAL_MS: how often each instance looks for due reminders and deliveries. */
  scanIntervalMs: number;
  /** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (default generated once into DATA_DIR): Web Push's identity, both or neither. */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  /** VAPID_SUBJECT (default BASE_URL when https, else `mailto:reminders@<host>`): a `mailto:` or `https:` contact for push services (RFC 8292). */
  vapidSubject: string;
  /** WEB_PUSH_TTL_SECONDS: how long a push service keeps an undelivered notification (RFC 8030 TTL). */
  webPushTtlSeconds: number;
  /** APP_URL: the rich client's address, where reminder links open (`<APP_URL>/days/<date>`); unset: BASE_URL's `/` page. */
  appUrl: string | undefined;
  /** REMINDER_SENDS_PER_MINUTE: sends one person receives per minute, all channels together; the rest wait for the next minute. */
  sendsPerMinute: number;
  /** REMINDER_SEND_TIMEOUT_MS (default WEBHOOK_TIMEOUT_MS): how long a push URL or push service send waits for the receiver. */
  sendTimeoutMs: number;
  /** REMINDER_BACKOFF_UNIT_MS (default WEBHOOK_BACKOFF_UNIT_MS): a failed send is tried again 1, then 2 of this unit later. */
  backoffUnitMs: number;
  /** REMINDER_LEASE_MS (default REMINDER_SEND_TIMEOUT_MS + 10 s): how long a claimed push send is its instance's (more than REMINDER_SEND_TIMEOUT_MS + 2 s); after it, another instance takes over a send whose instance died. */
  leaseMs: number;
  /** REMINDER_ALLOW_PRIVATE_URLS (default WEBHOOK_ALLOW_PRIVATE_URLS): accept push URLs and push services whose host is or resolves to a loopback, private or link-local address. */
  allowPrivateUrls: boolean;
}

export interface SecondFactorLockSettings {
  /** SECOND_FACTOR_MAX_FAILURES: wrong second factors (any step, any address) that lock the account's second step. */
  maxFailures: number;
  /** SECOND_FACTOR_LOCK_MS: how long the lock lasts. */
  lockMs: number;
  /** SECOND_FACTOR_FREE_FAILURES: wrong answers taken at once; each one after waits twice as long as the last. */
  freeFailures: number;
}

export interface LiveSettings {
  /** LIVE_MAX_SOCKETS_PER_USER: open WebSockets and event streams one person may hold on one instance. */
  maxSocketsPerUser: number;
  /** LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: subscriptions running at once on one WebSocket. */
  maxSubscriptionsPerSocket: number;
  /**
   * LIVE_MAX_DISTINCT_SUBSCRIPTIONS_PER_USER: different subscriptions (query and arguments) one person may
   * run on one instance, all sockets together; identical ones share one read. Each change re-reads at most these.
   */
  maxDistinctSubscriptionsPerUser: number;
  /** LIVE_MAX_SOCKETS: open WebSockets and event streams on one instance, all people together. */
  maxSockets: number;
  /** LIVE_KEEPALIVE_MS: ping interval; a socket that has not answered the previous ping is closed. */
  keepAliveMs: number;
  /** LIVE_SESSION_CHECK_MS: how often open sockets' sessions are checked (logout, revocation, password change). */
  sessionCheckMs: number;
  /** LIVE_MAX_BUFFERED_BYTES: a socket whose unsent data passes this is a slow consumer and is closed. */
  maxBufferedBytes: number;
}

/** The per-instance cache of repeated read answers (src/graphql/answer-cache.ts, docs/performance.md). */
export interface AnswerCacheSettings {
  /** ANSWER_CACHE_MAX_ENTRIES: answers kept per instance, all people together (least recently used dropped first); 0 turns the cache off. */
  maxEntries: number;
  /** ANSWER_CACHE_MAX_BYTES: the cached answers' weight as JSON in bytes, all together; an answer heavier than an eighth of it is not kept. */
  maxBytes: number;
}

export interface OidcSettings {
  /** OIDC_ISSUER: the provider's issuer identifier; its discovery document is read on first use. */
  issuer: string;
  /** OIDC_CLIENT_ID / OIDC_CLIENT_SECRET: the client registered with the provider (required with OIDC_ISSUER); no secret: a public client, PKCE only. */
  clientId: string;
  clientSecret: string | undefined;
  /** OIDC_ALLOWED_EMAIL_DOMAINS: lower-case domains; empty = any verified email. */
  allowedEmailDomains: string[];
  /** OIDC_AUTO_CREATE: a first sign-in with an unknown email creates the account. */
  autoCreate: boolean;
  /** OIDC_BUTTON_LABEL: what sign-in forms write on the button. */
  buttonLabel: string;
  /** OIDC_TIMEOUT_MS: how long a request to the provider (discovery, token, keys) may take. */
  timeoutMs: number;
}

/** false: the socket's address; a number: that many proxies in front; a list: the proxies trusted. */
export type TrustProxy = boolean | number | string[];

export interface S3Settings {
  /** S3_BUCKET: the bucket of the `s3` adapter; required when FILE_STORAGE_ADAPTER=s3. */
  bucket: string;
  /** S3_ENDPOINT: an S3-compatible service's address (MinIO, R2…); unset: AWS. */
  endpoint: string | undefined;
  /** S3_REGION: the bucket's region. */
  region: string;
  /** S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: the credentials; unset: the SDK's default chain (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** S3_FORCE_PATH_STYLE: the bucket in the path, not the host name (MinIO and most S3-compatible services). */
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min) throw new ConfigError(name, `must be at least ${min}`);
  return value;
}

function readIntUpTo(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = readInt(env, name, fallback, min);
  if (value > max) throw new ConfigError(name, `must be at most ${max}`);
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function readList(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'not a valid URL');
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL`);
  }
  return raw;
}

/** Names express knows for address ranges (proxy-addr). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (/^\d+$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(prefix) === 4; // a netmask, as express accepts
}

/** TRUST_PROXY as express's `trust proxy` takes it: false, true, a hop count, or addresses/subnets. */
function readTrustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined || !entries.length) {
    throw new ConfigError('TRUST_PROXY', `expected false, true, a number of proxies, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal; got "${bad ?? raw}"`);
  }
  return entries;
}

/** TRUSTED_ORIGINS: comma-separated `http(s)://host[:port]` origins, without a path. */
function readOrigins(env: Env, name: string): string[] {
  return readList(env, name, []).map((raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(name, `"${raw}" is not an origin (expected like https://app.example.com)`);
    }
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (!['http:', 'https:'].includes(url.protocol) || !bare || raw.includes('*')) {
      throw new ConfigError(name, `"${raw}" is not an origin (expected scheme://host[:port], no path or wildcard)`);
    }
    return url.origin;
  });
}

/** A VAPID key: base64url of `bytes` bytes (65 for the public P-256 point, 32 for the private scalar). */
function readVapidKey(env: Env, name: string, bytes: number): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(raw) || Buffer.from(raw, 'base64url').length !== bytes) {
    throw new ConfigError(name, `expected the base64url encoding of ${bytes} bytes (as web-push generate-vapid-keys prints it)`);
  }
  return raw;
}

/**
 * NODE_ENV: with `production` (the Docker image sets it) PASSWORD_HASH_COST=test is refused, since such a
 * hash is cheap to compute and so to guess; no other setting depends on it.
 */
function readPasswordHashCost(env: Env): 'standard' | 'test' {
  const cost = readEnum(env, 'PASSWORD_HASH_COST', ['standard', 'test'] as const, 'standard');
  if (cost === 'test' && env.NODE_ENV === 'production') throw new ConfigError('PASSWORD_HASH_COST', '"test" is for test runs and refused with NODE_ENV=production');
  return cost;
}

/** TEST_CLOCK: a start instant for test runs; a production service runs on the real clock only. */
function readTestClock(env: Env): Date | undefined {
  const raw = env.TEST_CLOCK?.trim();
  if (!raw) return undefined;
  if (env.NODE_ENV === 'production') throw new ConfigError('TEST_CLOCK', 'is for test runs and refused with NODE_ENV=production');
  const at = new Date(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(at.getTime())) throw new ConfigError('TEST_CLOCK', `"${raw}" is not an ISO 8601 instant (e.g. 2032-03-17T12:00:00Z)`);
  return at;
}

function readSecondFactorLock(env: Env): SecondFactorLockSettings {
  const maxFailures = readInt(env, 'SECOND_FACTOR_MAX_FAILURES', 10, 2);
  const freeFailures = readInt(env, 'SECOND_FACTOR_FREE_FAILURES', 5, 1);
  if (freeFailures >= maxFailures) throw new ConfigError('SECOND_FACTOR_FREE_FAILURES', `must be below SECOND_FACTOR_MAX_FAILURES (${maxFailures})`);
  return { maxFailures, freeFailures, lockMs: readInt(env, 'SECOND_FACTOR_LOCK_MS', 900_000, 1000) };
}

function readReminders(env: Env, baseUrl: string, webhooks: Config['webhooks']): ReminderSettings {
  const vapidPublicKey = readVapidKey(env, 'VAPID_PUBLIC_KEY', 65);
  const vapidPrivateKey = readVapidKey(env, 'VAPID_PRIVATE_KEY', 32);
  if (Boolean(vapidPublicKey) !== Boolean(vapidPrivateKey)) {
    throw new ConfigError(vapidPublicKey ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY', 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all');
  }
  let vapidSubject = env.VAPID_SUBJECT?.trim();
  if (vapidSubject) {
    let url: URL | undefined;
    try {
      url = new URL(vapidSubject);
    } catch {
      url = undefined;
    }
    if (!url || !['mailto:', 'https:'].includes(url.protocol)) throw new ConfigError('VAPID_SUBJECT', `expected a mailto: or https: URL, got "${vapidSubject}"`);
  } else {
    const base = new URL(baseUrl);
    vapidSubject = base.protocol === 'https:' ? base.origin : `mailto:reminders@${base.hostname}`;
  }
  // Unset, the webhooks' values (what reminders used before they had their own).
  const sendTimeoutMs = readInt(env, 'REMINDER_SEND_TIMEOUT_MS', webhooks.timeoutMs, 1);
  // A send starts only while it can end 2 s before its lease does (src/reminders/delivery-dispatcher.ts).
  const leaseMs = readInt(env, 'REMINDER_LEASE_MS', sendTimeoutMs + 10_000, 1);
  if (leaseMs <= sendTimeoutMs + 2000) throw new ConfigError('REMINDER_LEASE_MS', `must be above REMINDER_SEND_TIMEOUT_MS + 2000 (${sendTimeoutMs + 2000})`);
  return {
    scanIntervalMs: readInt(env, 'REMINDER_SCAN_INTERVAL_MS', 1000, 10),
    vapidPublicKey,
    vapidPrivateKey,
    vapidSubject,
    webPushTtlSeconds: readInt(env, 'WEB_PUSH_TTL_SECONDS', 3600, 0),
    appUrl: readUrl(env, 'APP_URL', ['http:', 'https:'])?.replace(/\/+$/, ''),
    sendsPerMinute: readInt(env, 'REMINDER_SENDS_PER_MINUTE', 20, 1),
    sendTimeoutMs,
    backoffUnitMs: readInt(env, 'REMINDER_BACKOFF_UNIT_MS', webhooks.backoffUnitMs, 1),
    leaseMs,
    allowPrivateUrls: readBool(env, 'REMINDER_ALLOW_PRIVATE_URLS', webhooks.allowPrivateUrls),
  };
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** OIDC_*: on when OIDC_ISSUER is set, which then needs OIDC_CLIENT_ID. */
function readOidc(env: Env): OidcSettings | null {
  const issuer = readUrl(env, 'OIDC_ISSUER', ['http:', 'https:']);
  const clientId = env.OIDC_CLIENT_ID?.trim() || undefined;
  if (!issuer) {
    if (clientId) throw new ConfigError('OIDC_ISSUER', 'required when OIDC_CLIENT_ID is set');
    return null;
  }
  if (!clientId) throw new ConfigError('OIDC_CLIENT_ID', 'required when OIDC_ISSUER is set');
  const allowedEmailDomains = readList(env, 'OIDC_ALLOWED_EMAIL_DOMAINS', []).map((d) => d.replace(/^@/, '').toLowerCase());
  const bad = allowedEmailDomains.find((d) => !DOMAIN.test(d));
  if (bad !== undefined) throw new ConfigError('OIDC_ALLOWED_EMAIL_DOMAINS', `"${bad}" is not a domain (expected like example.com)`);
  return {
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET || undefined,
    allowedEmailDomains,
    autoCreate: readBool(env, 'OIDC_AUTO_CREATE', false),
    buttonLabel: env.OIDC_BUTTON_LABEL?.trim() || 'Sign in with single sign-on',
    timeoutMs: readInt(env, 'OIDC_TIMEOUT_MS', 10_000, 100),
  };
}

function readS3(env: Env): S3Settings | null {
  const bucket = env.S3_BUCKET || undefined;
  if (!bucket) {
    if (env.FILE_STORAGE_ADAPTER === 's3') throw new ConfigError('S3_BUCKET', 'required when FILE_STORAGE_ADAPTER=s3');
    return null;
  }
  return {
    bucket,
    endpoint: readUrl(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: readBool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = readInt(env, 'PORT', 3000);
  if (port > 65535) throw new ConfigError('PORT', 'must be at most 65535');
  const dataDir = resolve(env.DATA_DIR || './data');
  const jobsBackend = readEnum(env, 'JOBS_BACKEND', ['postgres', 'mongo'] as const, 'postgres');
  const mongodbUrl = readUrl(env, 'MONGODB_URL', ['mongodb:', 'mongodb+srv:']);
  if (jobsBackend === 'mongo' && !mongodbUrl) {
    throw new ConfigError('MONGODB_URL', 'required when JOBS_BACKEND=mongo');
  }
  const baseUrl = readUrl(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  const oidc = readOidc(env);
  const passwordSignInDisabled = readBool(env, 'PASSWORD_SIGN_IN_DISABLED', false);
  // Without another way in, nobody could sign in at all.
  if (passwordSignInDisabled && !oidc) throw new ConfigError('PASSWORD_SIGN_IN_DISABLED', 'needs OIDC_ISSUER (single sign-on) to be configured');
  const webhooks = {
    timeoutMs: readInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1),
    backoffUnitMs: readInt(env, 'WEBHOOK_BACKOFF_UNIT_MS', 60_000, 1),
    allowPrivateUrls: readBool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
  };
  return {
    port,
    host: env.HOST || '127.0.0.1',
    baseUrl: baseUrl.replace(/\/+$/, ''),
    baseUrlConfigured: Boolean(env.BASE_URL),
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir,
    jwtSecret: env.JWT_SECRET || undefined,
    defaultPlan: readEnum(env, 'DEFAULT_PLAN', ['free', 'pro'] as const, 'free'),
    jobsBackend,
    mongodbUrl,
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    smtpUrl: readUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailOutboxDir: resolve(env.MAIL_OUTBOX_DIR || `${dataDir}/mail`),
    trustedOrigins: readOrigins(env, 'TRUSTED_ORIGINS'),
    logLevel: readEnum(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    trustProxy: readTrustProxy(env),
    graphqlDebug: readBool(env, 'GRAPHQL_DEBUG', false),
    shutdownDrainMs: readInt(env, 'SHUTDOWN_DRAIN_MS', 1000),
    passwordHashCost: readPasswordHashCost(env),
    testClock: readTestClock(env),
    http: readHttpTimeouts(env),
    importChunkMs: readIntUpTo(env, 'IMPORT_CHUNK_MS', 3000, 1, 20_000),
    readyzProbeCacheMs: readInt(env, 'READYZ_PROBE_CACHE_MS', 5_000),
    rateLimit: {
      disabled: readBool(env, 'DISABLE_RATE_LIMIT', false),
      max: readInt(env, 'RATE_LIMIT_MAX', 1000, 1),
      windowMs: readInt(env, 'RATE_LIMIT_TIME_WINDOW', 900_000, 1),
      authMax: readInt(env, 'RATE_LIMIT_AUTH_MAX', 100, 1),
      authWindowMs: readInt(env, 'RATE_LIMIT_AUTH_TIME_WINDOW', 900_000, 1),
      publicApiMax: readInt(env, 'RATE_LIMIT_PUBLIC_API_MAX', 500, 1),
      publicApiWindowMs: readInt(env, 'RATE_LIMIT_PUBLIC_API_TIME_WINDOW', 900_000, 1),
    },
    webhooks,
    secondFactorLock: readSecondFactorLock(env),
    reminders: readReminders(env, baseUrl, webhooks),
    oidc,
    passwordSignInDisabled,
    live: {
      maxSocketsPerUser: readInt(env, 'LIVE_MAX_SOCKETS_PER_USER', 10, 1),
      maxSubscriptionsPerSocket: readInt(env, 'LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET', 20, 1),
      maxDistinctSubscriptionsPerUser: readInt(env, 'LIVE_MAX_DISTINCT_SUBSCRIPTIONS_PER_USER', 20, 1),
      maxSockets: readInt(env, 'LIVE_MAX_SOCKETS', 10_000, 1),
      keepAliveMs: readInt(env, 'LIVE_KEEPALIVE_MS', 15_000, 100),
      sessionCheckMs: readInt(env, 'LIVE_SESSION_CHECK_MS', 2_000, 100),
      maxBufferedBytes: readInt(env, 'LIVE_MAX_BUFFERED_BYTES', 1_048_576, 1024),
    },
    syncRetentionDays: readInt(env, 'SYNC_RETENTION_DAYS', 90, 1),
    answerCache: {
      maxEntries: readInt(env, 'ANSWER_CACHE_MAX_ENTRIES', 10_000, 0),
      maxBytes: readInt(env, 'ANSWER_CACHE_MAX_BYTES', 33_554_432, 0),
    },
    files: {
      maxFileSize: readInt(env, 'MAX_FILE_SIZE', 10_485_760, 1),
      allowedImageTypes: readList(env, 'ALLOWED_IMAGE_TYPES', ['image/jpeg', 'image/png', 'image/webp']),
      allowedDocumentTypes: readList(env, 'ALLOWED_DOCUMENT_TYPES', ['application/pdf']),
      imageProcessingMode: readEnum(env, 'IMAGE_PROCESSING_MODE', ['eager', 'lazy'] as const, 'eager'),
      storageAdapter: readEnum(env, 'FILE_STORAGE_ADAPTER', ['disk', 's3'] as const, 'disk'),
      uploadDir: resolve(env.FILE_UPLOAD_DIR || './uploads'),
      s3: readS3(env),
    },
  };
}
