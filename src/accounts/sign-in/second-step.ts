import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import { hashToken, newOneTimeToken } from '../one-time-token.js';
import { TotpCredential } from '../two-factor/totp-credential.entity.js';
import type { User } from '../user.entity.js';
import { SignInChallenge } from './sign-in-challenge.entity.js';

/** What may answer the second step of a sign-in. */
export type SecondFactorMethod = 'totp' | 'recovery_code' | 'passkey';

export const SECOND_STEP_TTL_MS = 5 * 60 * 1000;
/** Wrong answers a second step takes; the next is refused like an expired one (sign in again). */
export const MAX_SECOND_STEP_ATTEMPTS = 5;

export interface SecondStep {
  challengeToken: string;
  expiresAt: Date;
  methods: SecondFactorMethod[];
}

/**
 * Whether the person has at least one passkey. Hook of the passkeys module (src/accounts/passkeys,
 * entity `Passkey` with a `user` relation): looked up by entity name, so it answers false until that
 * entity is registered and needs no import in either direction.
 */
export async function hasPasskeys(em: EntityManager, userId: string): Promise<boolean> {
  if (!em.getMetadata().find('Passkey')) return false;
  return (await em.count('Passkey', { user: userId })) > 0;
}

/** The second factors this account asks for after its first: none without TOTP. */
export async function requiredSecondFactors(em: EntityManager, user: User): Promise<SecondFactorMethod[]> {
  const totp = await em.count(TotpCredential, { user: user.id, enabledAt: { $ne: null } });
  if (!totp) return [];
  return (await hasPasskeys(em, user.id)) ? ['totp', 'recovery_code', 'passkey'] : ['totp', 'recovery_code'];
}

/** Opens a second step for a user whose first factor passed (and sweeps their expired ones). */
export async function beginSecondStep(em: EntityManager, user: User, methods: SecondFactorMethod[]): Promise<SecondStep> {
  const { token, hash } = newOneTimeToken();
  const expiresAt = new Date(Date.now() + SECOND_STEP_TTL_MS);
  await em.nativeDelete(SignInChallenge, { user: user.id, expiresAt: { $lt: new Date() } });
  em.create(SignInChallenge, { user, tokenHash: hash, expiresAt });
  await em.flush();
  return { challengeToken: token, expiresAt, methods };
}

/**
 * The open second step of this token, locked for the caller's transaction (two answers to one step
 * wait for each other), with its user. A token that is unknown, used, expired or out of attempts is
 * refused the same way, on `challengeToken`.
 */
export async function loadSecondStep(em: EntityManager, challengeToken: string): Promise<SignInChallenge> {
  const row = await em.findOne(
    SignInChallenge,
    { tokenHash: hashToken(challengeToken), usedAt: null, expiresAt: { $gt: new Date() }, attempts: { $lt: MAX_SECOND_STEP_ATTEMPTS } },
    { populate: ['user'], lockMode: LockMode.PESSIMISTIC_WRITE },
  );
  if (!row) {
    throw new ValidationError('The sign-in step is invalid, used or expired: sign in again', [
      { path: ['challengeToken'], message: 'challengeToken is invalid, used or expired' },
    ]);
  }
  return row;
}

/**
 * The one way to answer a step (every second-factor path: TOTP and recovery codes over GraphQL, REST and
 * the connector's page, a passkey as second factor): its row as loadSecondStep gives it, and the answer
 * counted against the account (second-factor-lockout.ts), which refuses it with 429
 * SECOND_FACTOR_LOCKED while the account waits or is locked. Follow with failSecondStep or finishSecondStep.
 */
export async function answerSecondStep(em: EntityManager, deps: AppDeps, challengeToken: string, precheck?: (row: SignInChallenge) => void): Promise<SignInChallenge> {
  const row = await loadSecondStep(em, challengeToken);
  // A request that is no answer at all (no passkey options asked for) is refused before it counts.
  precheck?.(row);
  await deps.secondFactorLockout.begin(row.user.id);
  return row;
}

/** Counts a wrong answer on the step and the account; returns how many the step has left (0: it is dead). */
export async function failSecondStep(deps: AppDeps, row: SignInChallenge): Promise<number> {
  row.attempts += 1;
  await deps.secondFactorLockout.failed(row.user);
  return Math.max(0, MAX_SECOND_STEP_ATTEMPTS - row.attempts);
}

/**
 * The step is spent: its token never opens a session again, and the account's wrong answers are
 * forgotten. Call it in the transaction that loaded the row (`em.transactional` writes it at commit,
 * with the session startSession adds).
 */
export async function finishSecondStep(deps: AppDeps, row: SignInChallenge): Promise<void> {
  row.usedAt = new Date();
  await deps.secondFactorLockout.succeeded(row.user.id);
}
