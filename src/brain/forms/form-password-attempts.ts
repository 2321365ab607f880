import { MemoryStore, type Options, type Store } from 'express-rate-limit';
import type { Config } from '../../core/config.js';
import { RateLimitError } from '../../core/errors.js';

/** A form takes at most this many wrong passwords per window, whoever sends them, from any address. */
export const FORM_PASSWORD_FAILURES_MAX = 10;
export const FORM_PASSWORD_WINDOW_MS = 15 * 60_000;

/** 429 for one form: too many wrong passwords lately, from every address. */
export class FormPasswordLockedError extends RateLimitError {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many wrong passwords for this form: try again in ${retryAfterSeconds} seconds`, {
      retryAfterSeconds,
      maxFailures: FORM_PASSWORD_FAILURES_MAX,
      windowSeconds: FORM_PASSWORD_WINDOW_MS / 1000,
    });
  }
}

/**
 * Wrong access passwords counted per form (the per-IP limit of the public form routes does not stop
 * a guesser spread over many addresses). Only wrong passwords count, never a success or a visit
 * without one: a success does not reset the count, or every respondent would hand a guesser ten
 * more tries. The count lives in the rate limiters' store (Redis with REDIS_URL, shared by every
 * instance; memory otherwise), a fixed window from the first failure.
 */
export class FormPasswordAttempts {
  constructor(private readonly store: Store) {}

  /** Throws FormPasswordLockedError while the form is over its limit. */
  async ensureOpen(formId: string): Promise<void> {
    const info = await this.store.get?.(formId);
    if (!info || info.totalHits < FORM_PASSWORD_FAILURES_MAX) return;
    const left = (info.resetTime?.getTime() ?? Date.now() + FORM_PASSWORD_WINDOW_MS) - Date.now();
    throw new FormPasswordLockedError(Math.max(1, Math.ceil(left / 1000)));
  }

  async failed(formId: string): Promise<void> {
    await this.store.increment(formId);
  }
}

/** The service's counter, in the given store (memory without one); none when rate limits are off (RATE_LIMIT_DISABLED). */
export function createFormPasswordAttempts(config: Config, store: Store | undefined): FormPasswordAttempts | null {
  if (config.rateLimit.disabled) return null;
  const chosen = store ?? new MemoryStore();
  chosen.init?.({ windowMs: FORM_PASSWORD_WINDOW_MS } as Options);
  return new FormPasswordAttempts(chosen);
}

declare module '../../core/context.js' {
  interface AppDeps {
    /** Wrong form passwords per form (createFormPasswordAttempts); null when rate limits are off. */
    formPasswordAttempts: FormPasswordAttempts | null;
  }
}

export const FORM_PASSWORD_STORE_PREFIX = `brain-form-password:${FORM_PASSWORD_WINDOW_MS}`;
