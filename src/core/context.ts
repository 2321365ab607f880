import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Orm } from './database/orm.js';
import type { BackgroundWork } from './background-work.js';
import type { LiveHub } from './live/live-hub.js';

/*
 * Core names no domain: the layers above add their parts to these interfaces by declaration merging
 * (`declare module '…/core/context.js'`): the mailer (src/mail/mailer.ts), the session tokens and the
 * signed-in user (src/accounts/), the job runner (src/jobs/job-runner.ts), the API key
 * (src/api-keys/api-key-auth.ts) and every domain's loaders (src/app/loaders.ts). The composition
 * (src/app/server.ts) builds the one AppDeps that has them all.
 */

/**
 * The long-lived engines the composition builds from the other parts (the variant worker, the webhook
 * and reminder engines): the modules that define them add them here by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Engines {}

/** Long-lived parts shared by every request, built once where the app is composed (src/app/server.ts). */
export interface AppDeps extends Engines {
  config: Config;
  logger: Logger;
  orm: Orm;
  /** The instant "now" for services that take a clock (the habits' today): real, or from TEST_CLOCK's instant on in tests. */
  clock: () => Date;
  /** Work started by a request and finished after its answer (shutdown waits for it). */
  background: BackgroundWork;
  /** The per-request dataloaders, made on first use (src/app/loaders.ts). */
  createLoaders(em: EntityManager): Loaders;
  /** Live updates (issue 27): this instance's subscribers and the bus between instances. */
  live?: LiveHub;
  /** Who the session cookie's token signs in, if its session still exists (src/accounts/session-auth.ts). */
  authenticateSession(em: EntityManager, token: string | undefined): Promise<Authenticated | null>;
}

/** What an engine is built from: every part of the app but the engines. */
export type EngineParts = Omit<AppDeps, keyof Engines>;

/** Every domain's dataloaders of one request (src/app/loaders.ts adds them). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Loaders {}

export interface CookieOptions {
  maxAgeMs?: number;
}

/** What a resolver may do to the HTTP answer, whichever edge (Apollo or Sofa) carries it. */
export interface HttpBridge {
  setCookie(name: string, value: string, options?: CookieOptions): void;
  clearCookie(name: string): void;
  /** Takes back every cookie this response was to set (its operation failed after all). */
  withdrawCookies(): void;
  /** Overrides the route's success status (e.g. 200 instead of 201 when nothing was created). */
  setStatus(status: number): void;
  /** Sets a header of the answer (e.g. Retry-After on a refusal); absent where there is no HTTP answer. */
  setHeader?(name: string, value: string): void;
  readonly ip: string | undefined;
  /** The request's User-Agent (recorded with a new sign-in session). */
  readonly userAgent?: string;
}

/** A signed-in request (src/accounts/session-auth.ts adds its `user`). */
export interface Authenticated {
  sessionId: string;
}

export interface AppContext {
  deps: AppDeps;
  em: EntityManager;
  auth: Authenticated | null;
  http: HttpBridge;
  loaders: Loaders;
  log: Logger;
  /** A live subscription's context: a fresh entity manager and loaders before each event is read. */
  renew?(): void;
}
