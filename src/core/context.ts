import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Orm } from './database/orm.js';
import type { Mailer } from '../mail/mailer.js';
import type { SessionTokens } from '../accounts/session-token.js';
import type { User } from '../accounts/user.entity.js';
import type { Loaders } from '../loaders.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { ApiKeyAuth } from '../api-keys/api-key-auth.js';
import type { BackgroundWork } from './background-work.js';

/** Long-lived parts shared by every request. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  orm: Orm;
  mailer: Mailer;
  sessionTokens: SessionTokens;
  jobs: JobRunner;
  /** Work started by a request and finished after its answer (shutdown waits for it). */
  background: BackgroundWork;
}

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
  readonly ip: string | undefined;
}

export interface Authenticated {
  user: User;
  sessionId: string;
}

export interface AppContext {
  deps: AppDeps;
  em: EntityManager;
  auth: Authenticated | null;
  /** Set only on the Public API surface (`/api/public/v1`), from `Authorization: Bearer <key>`. */
  apiKey?: ApiKeyAuth | null;
  http: HttpBridge;
  loaders: Loaders;
  log: Logger;
}
