import { MemoryStore, type Options, type Store } from 'express-rate-limit';
import type { AppContext, EngineParts } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import type { LimiterStores } from '../../http/rate-limits.js';
import { secondFactorLockedMail } from '../../mail/templates.js';

/** The first wait after the free answers; each later one doubles (5 s, 15 s, 35 s, 75 s … from the first failure). */
export const BACKOFF_UNIT_MS = 5_000;
/** Wrong answers are remembered this long from the first, or SECOND_FACTOR_LOCK_MS if longer (and forgotten at a right one or a lock). */
const FAILURE_WINDOW_MS = 60 * 60_000;

/** 429 SECOND_FACTOR_LOCKED: the account takes no second factor until `retryAfterSeconds` have passed. */
export class SecondFactorLockedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    reason: 'backoff' | 'locked',
  ) {
    super(
      'SECOND_FACTOR_LOCKED',
      429,
      reason === 'locked'
        ? `Too many wrong second factors for this account: try again in ${retryAfterSeconds} seconds`
        : `Wrong second factors for this account: wait ${retryAfterSeconds} seconds before the next try`,
      { reason, retryAfterSeconds },
    );
  }
}

function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/**
 * Wrong second factors counted per account, across sign-in steps and client addresses (RFC 6238 §5.2,
 * RFC 4226 §7.3: throttle, then lock). The per-step limit (five) and the per-address auth limit let a
 * guesser open step after step from address after address; this count does not.
 *
 * - Every answer is counted before it is checked (`begin`), so answers sent together cannot all pass
 *   the check; a right answer clears the count (`succeeded`).
 * - After SECOND_FACTOR_FREE_FAILURES wrong answers, the next waits 5 s × (2^k − 1) from the first one
 *   (k = wrong answers past the free ones): refused unchecked with 429 and Retry-After until then.
 * - At SECOND_FACTOR_MAX_FAILURES the account's second step is locked for SECOND_FACTOR_LOCK_MS (the
 *   right code too is refused) and the person gets one mail per lock.
 *
 * The counts live in the rate limiters' store (Redis with REDIS_URL, shared by every instance; memory
 * otherwise), through express-rate-limit's Store interface only.
 */
export class SecondFactorLockout {
  /** The clock the back-off reads (tests move it instead of waiting). */
  now: () => number = Date.now;

  constructor(
    private readonly deps: EngineParts,
    private readonly failures: Store,
    private readonly locks: Store,
    /** How long wrong answers are remembered from the first. */
    private readonly failureWindowMs: number,
  ) {}

  private get settings() {
    return this.deps.config.secondFactorLock;
  }

  /** Throws SecondFactorLockedError while the account is locked. */
  async ensureOpen(userId: string): Promise<void> {
    const lock = await this.locks.get?.(userId);
    if (lock && lock.totalHits > 0) throw new SecondFactorLockedError(secondsUntil(lock.resetTime?.getTime() ?? Date.now() + this.settings.lockMs, Date.now()), 'locked');
  }

  /** Counts one answer about to be checked; refuses it (uncounted) while locked or waiting. */
  async begin(userId: string): Promise<void> {
    // Counted first, the lock read after: an answer counted just after a lock began (and reset the
    // count) still sees the lock, so no more than SECOND_FACTOR_MAX_FAILURES are ever checked.
    const { totalHits, resetTime } = await this.failures.increment(userId);
    try {
      await this.ensureOpen(userId);
    } catch (error) {
      await this.failures.decrement(userId);
      throw error;
    }
    const firstAt = (resetTime?.getTime() ?? Date.now() + this.failureWindowMs) - this.failureWindowMs;
    const allowedAt = firstAt + this.waitAfter(totalHits - 1);
    if (allowedAt <= this.now()) return;
    await this.failures.decrement(userId);
    throw new SecondFactorLockedError(secondsUntil(allowedAt, this.now()), 'backoff');
  }

  /** The answer was wrong: at the limit the lock begins, and its first failure mails the person. */
  async failed(user: { id: string; email: string }): Promise<void> {
    const counted = await this.failures.get?.(user.id);
    if (!counted || counted.totalHits < this.settings.maxFailures) return;
    const { totalHits } = await this.locks.increment(user.id);
    await this.failures.resetKey(user.id);
    if (totalHits !== 1) return; // another instance or answer began this lock
    const until = new Date(Date.now() + this.settings.lockMs);
    const mail = secondFactorLockedMail(user.email, this.settings.maxFailures, until);
    this.deps.background.run('second-factor lock mail', () => this.deps.mailer.send(mail));
  }

  async succeeded(userId: string): Promise<void> {
    await this.failures.resetKey(userId);
  }

  /** How long after the first wrong answer the next may come, with `wrong` wrong answers so far. */
  private waitAfter(wrong: number): number {
    const past = wrong - this.settings.freeFailures;
    if (past <= 0) return 0;
    if (wrong >= this.settings.maxFailures) return this.settings.lockMs;
    return Math.min(BACKOFF_UNIT_MS * (2 ** past - 1), this.settings.lockMs);
  }
}

function ready(store: Store | undefined, windowMs: number): Store {
  const chosen = store?.get ? store : new MemoryStore();
  chosen.init?.({ windowMs } as Options);
  return chosen;
}

/** The service's per-account count, in the limiters' stores (built once where the app is composed). */
export function createSecondFactorLockout(deps: EngineParts, stores: LimiterStores): SecondFactorLockout {
  const { lockMs } = deps.config.secondFactorLock;
  const windowMs = Math.max(FAILURE_WINDOW_MS, lockMs);
  // The window is part of the prefix, as for the other limiters: a changed setting starts fresh.
  const failures = ready(stores.store(`2fa-failures:${windowMs}`), windowMs);
  return new SecondFactorLockout(deps, failures, ready(stores.store(`2fa-lock:${lockMs}`), lockMs), windowMs);
}

declare module '../../core/context.js' {
  interface Engines {
    /** Wrong second factors per account (createSecondFactorLockout). */
    secondFactorLockout: SecondFactorLockout;
  }
}

/** Runs a second-factor answer; a lock's refusal carries Retry-After on the HTTP answer. */
export async function withRetryAfter<T>(ctx: AppContext, answer: () => Promise<T>): Promise<T> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof SecondFactorLockedError) ctx.http.setHeader?.('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
}
