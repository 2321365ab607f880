import type { EntityManager } from '@mikro-orm/postgresql';
import { isEmail } from 'class-validator';
import type { Plan } from '../core/config.js';
import { EmailExistsError, NotFoundError, ValidationError } from '../core/errors.js';
import { normalizeEmail } from './auth.service.js';
import { hashPassword } from './password.js';
import { User } from './user.entity.js';

/** The same bounds as sign-up (auth.types.ts). */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 256;
const PLANS: readonly Plan[] = ['free', 'pro'];

/** `free` or `pro`; anything else is a validation error naming the allowed values. */
export function parsePlan(raw: string): Plan {
  if ((PLANS as readonly string[]).includes(raw)) return raw as Plan;
  throw new ValidationError(`plan must be one of ${PLANS.join(', ')}, got "${raw}"`, [
    { path: ['plan'], message: `plan must be one of ${PLANS.join(', ')}` },
  ]);
}

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date (`2030-01-31`, midnight UTC) or date-time (`2030-01-31T12:00:00Z`, an offset, or
 * local time without one). Impossible calendar dates such as 2030-02-30 are refused, not rolled over.
 */
export function parseExpiry(raw: string): Date {
  const match = ISO_8601.exec(raw.trim());
  const invalid = () =>
    new ValidationError(`expires must be an ISO 8601 date or date-time (e.g. 2030-01-31T00:00:00Z), got "${raw}"`, [
      { path: ['expires'], message: 'expires must be an ISO 8601 date or date-time' },
    ]);
  if (!match) throw invalid();
  const [, y, m, d, hh = '0', mm = '0', ss = '0'] = match;
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) {
    throw invalid();
  }
  const text = raw.trim().replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const date = new Date(match[4] === undefined ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(date.getTime())) throw invalid();
  return date;
}

export interface CreateUserOptions {
  plan: Plan;
  planExpiresAt?: Date | null;
}

/**
 * Operator actions on accounts from the shell (`npm run admin`): there is no billing, so plans are
 * given here. Each method is one unit of work on the given entity manager.
 */
export class AccountAdminService {
  constructor(private readonly em: EntityManager) {}

  /** A user who can sign in at once: email already verified, no verification mail. */
  async createUser(email: string, password: string, options: CreateUserOptions): Promise<User> {
    const normalized = normalizeEmail(email);
    if (!isEmail(normalized) || normalized.length > 320) {
      throw new ValidationError(`email must be a valid email address, got "${email}"`, [
        { path: ['email'], message: 'email must be a valid email address' },
      ]);
    }
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
      throw new ValidationError(`password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, [
        { path: ['password'], message: `password must be at least ${PASSWORD_MIN} characters` },
      ]);
    }
    if (await this.em.count(User, { email: normalized })) throw new EmailExistsError();
    const user = this.em.create(User, {
      email: normalized,
      passwordHash: await hashPassword(password),
      emailVerifiedAt: new Date(),
      plan: options.plan,
      planExpiresAt: options.planExpiresAt ?? null,
    });
    try {
      await this.em.flush();
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new EmailExistsError();
      throw error;
    }
    return user;
  }

  /**
   * Sets a user's plan. `expiresAt` null means no end; a past date leaves the user on a lapsed plan.
   * The free plan has nothing to expire, so an expiry with it is refused.
   */
  async setPlan(email: string, plan: Plan, expiresAt: Date | null): Promise<User> {
    if (plan === 'free' && expiresAt) {
      throw new ValidationError('expires applies only to the pro plan', [
        { path: ['expires'], message: 'expires applies only to the pro plan' },
      ]);
    }
    const user = await this.em.findOne(User, { email: normalizeEmail(email) });
    if (!user) throw new NotFoundError('User', { email });
    user.plan = plan;
    user.planExpiresAt = expiresAt;
    await this.em.flush();
    return user;
  }
}
