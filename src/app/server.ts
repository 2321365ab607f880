import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RedisClientType } from 'redis';
import type { Config } from '../core/config.js';
import type { AppDeps, EngineParts } from '../core/context.js';
import { createLogger, type Logger } from '../core/logger.js';
import { resolveDatabase } from '../core/database/database-url.js';
import type { Orm } from '../core/database/orm.js';
import { migrate } from '../migrations/migrator.js';
import { connectAppOrm } from './database.js';
import { loadJwtSecret } from '../core/secrets.js';
import { SessionTokens } from '../accounts/session-token.js';
import { setPasswordHashCost } from '../accounts/password.js';
import { createMailer } from '../mail/mailer.js';
import { buildAppSchema } from './schema.js';
import { createLoaders } from './loaders.js';
import { SessionAuthenticator } from '../accounts/session-auth.js';
import { TodayDayIds } from '../planning/today-day-ids.js';
import { createHttpApp } from './http-app.js';
import type { RestPathCheck } from '../../rest/path-comparison.js';
import { ConnectionDrain } from '../http/connection-drain.js';
import { applyConnectionTimeouts } from '../http/connection-timeouts.js';
import { createJobRunner, type JobRunner } from '../jobs/job-runner.js';
import { registerJobs } from './jobs.js';
import { runSeeds } from './seeds.js';
import { registerFactReactors } from './reactors.js';
import { BackgroundWork } from '../core/background-work.js';
import type { LiveHub } from '../core/live/live-hub.js';
import { attachGraphqlWs } from '../live/graphql-ws-server.js';
import { AnswerCache } from '../graphql/answer-cache.js';
import { startLive } from './live.js';
import { connectRedis } from '../core/redis-connection.js';
import { limiterStores } from '../http/rate-limits.js';
import { serviceFormCsrf } from '../http/form-csrf.js';
import { createFilesRuntime } from '../files/files-runtime.js';
import { VariantWorker } from '../files/variant-worker.js';
import { exportSignerFor } from '../portability/export/export.service.js';
import { createFormPasswordAttempts, FORM_PASSWORD_STORE_PREFIX } from '../brain/forms/form-password-attempts.js';
import { createSecondFactorLockout } from '../accounts/sign-in/second-factor-lockout.js';
import { WebhookEngine } from '../webhooks/webhook-engine.js';
import { ReminderEngine } from '../reminders/reminder-engine.js';

export interface RunningServer {
  url: string;
  port: number;
  orm: Orm;
  deps: AppDeps;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Tests only: compare the REST surfaces' direct path with Sofa's on every request (rest/path-comparison.ts). */
  restPathCheck?: RestPathCheck;
}

/** Starts the whole service: database (embedded unless DATABASE_URL), migrations, HTTP. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  setPasswordHashCost(config.passwordHashCost);
  const database = await resolveDatabase(config.databaseUrl, config.dataDir);
  let orm: Orm | undefined;
  let redis: RedisClientType | undefined;
  let jobs: JobRunner | undefined;
  let jobsCreating: Promise<JobRunner> | undefined;
  let jobsStarting: Promise<void> | undefined;
  let live: LiveHub | undefined;
  let sessions: SessionAuthenticator | undefined;
  let todayDayIds: TodayDayIds | undefined;
  try {
    // The job runner's set-up (Agenda's own table, its pools) only waits on the database: it goes on
    // while the ORM starts (its metadata discovery is CPU), the migrations and the seeds run.
    jobsCreating = createJobRunner(config, database.url, logger);
    jobsCreating.catch(() => undefined); // awaited below, where a failure fails the start
    orm = await connectAppOrm(database.url);
    await migrate(orm);
    await runSeeds(orm.em.fork());
    registerFactReactors(orm);
    if (config.redisUrl) {
      // Fails fast and falls back while down (docs/operations.md: Dependencies); loaded only when configured.
      redis = await connectRedis(config.redisUrl, logger);
    }
    live = await startLive({ config, logger }, orm, database.url, redis);
    const secret = await loadJwtSecret(config.jwtSecret, config.dataDir);
    const sessionTokens = new SessionTokens(secret);
    sessions = new SessionAuthenticator(orm, sessionTokens, logger);
    void sessions.start(); // the cache is used once its listener listens; the start does not wait for it
    todayDayIds = new TodayDayIds(orm.config.get('clientUrl'), logger);
    void todayDayIds.start(); // likewise
    // Repeated reads from memory (issue 36 item 8): a person's committed changes, heard from any
    // instance, drop their answers early; the data version checked on every hit keeps them correct.
    const answerCache = new AnswerCache(config.answerCache);
    live.bus.onBatch((batch) => answerCache.forgetPerson(batch.userId));
    // The rate limiters' counters (Redis when configured), shared by the HTTP app and the lockouts.
    const stores = limiterStores(redis, logger);
    // TEST_CLOCK: the clock starts at its instant and runs on (the order of writes stays that of time).
    const shift = config.testClock ? config.testClock.getTime() - Date.now() : 0;
    const clock = shift === 0 ? () => new Date() : () => new Date(Date.now() + shift);
    const parts: EngineParts = {
      config,
      logger,
      orm,
      mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.mailOutboxDir }),
      sessionTokens,
      jobs: (jobs = await jobsCreating),
      background: new BackgroundWork(logger),
      clock,
      createLoaders: (em) => createLoaders(em, clock),
      live,
      authenticateSession: (em, token) => sessions!.authenticate(em, token),
      todayDayIds,
      answerCache,
      // An upload's variants go to the variant worker, an engine built below from these parts.
      files: await createFilesRuntime(config, logger, secret, (fileId) => deps.variants.submit(fileId)),
      exportSigner: exportSignerFor(secret),
      formCsrf: serviceFormCsrf(config, sessionTokens.derivedSecret('form-csrf')),
      formPasswordAttempts: createFormPasswordAttempts(config, stores.store(FORM_PASSWORD_STORE_PREFIX)),
    };
    // The engines, each built once from the parts; those that run beside the job runner attach to it.
    const deps: AppDeps = {
      ...parts,
      webhooks: WebhookEngine.register(parts),
      variants: new VariantWorker(parts),
      // The reminder kinds make their services from the composed deps, read when they run.
      reminders: ReminderEngine.register(parts, () => deps),
      // Wrong second factors per account, in the auth limiter's store (counted whatever DISABLE_RATE_LIMIT says).
      secondFactorLockout: createSecondFactorLockout(parts, stores),
    };
    registerJobs(deps);
    // Agenda's start mostly waits on the database (its connections, LISTEN, the companions' first
    // reads): the schema and the HTTP app, all CPU, are built meanwhile. Both are done before listening.
    jobsStarting = jobs.start();
    jobsStarting.catch(() => undefined); // awaited below, where a failure fails the start
    const schema = await buildAppSchema();
    const http = await createHttpApp(deps, schema, stores, redis, options.restPathCheck);
    await jobsStarting;
    const server: Server = createServer(http.app);
    applyConnectionTimeouts(server, config.http);
    const drain = new ConnectionDrain(server);
    const liveSockets = attachGraphqlWs(server, deps, schema, live, http.limiters);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    if (!config.baseUrlConfigured) config.baseUrl = `http://localhost:${port}`;
    logger.info({ url, database: database.embedded ? 'embedded' : 'external', node: process.version }, `listening on ${url}`);

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        // Live sockets and event streams close first (1001: clients reconnect elsewhere); then stop
        // accepting connections, answer what arrives on open ones during the drain, release the rest.
        await liveSockets.close();
        await drain.close(config.shutdownDrainMs);
        logger.debug('http server closed');
        await http.stop();
        await deps.background.idle(); // mails requests already answered for
        await jobs!.stop();
        logger.debug('job runner stopped');
        await sessions!.stop();
        await todayDayIds!.stop();
        await redis?.quit().catch(() => undefined);
        await orm!.close();
        logger.debug('database connections closed');
        await database.release();
        logger.info('stopped');
      })());
    return { url, port, orm, deps, close };
  } catch (error) {
    jobs ??= await jobsCreating?.catch(() => undefined);
    await jobsStarting?.catch(() => undefined); // stopped once its start has settled
    await jobs?.stop().catch(() => undefined);
    await live?.stop().catch(() => undefined);
    await sessions?.stop().catch(() => undefined);
    await todayDayIds?.stop().catch(() => undefined);
    await redis?.quit().catch(() => undefined);
    await orm?.close().catch(() => undefined);
    await database.release().catch(() => undefined);
    throw error;
  }
}
