import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext, AppDeps } from '../../core/context.js';
import { InvalidCredentialsError, RuleViolationError, UnauthorizedError, ValidationError } from '../../core/errors.js';
import { verifyPassword } from '../password.js';
import { answerSecondStep, failSecondStep, finishSecondStep } from '../sign-in/second-step.js';
import { SignInChallenge } from '../sign-in/sign-in-challenge.entity.js';
import { sessionMetaOf, startSession, type SessionMeta, type StartedSession } from '../sign-in/start-session.js';
import { User } from '../user.entity.js';
import { RecoveryCode } from './recovery-code.entity.js';
import { hashRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.js';
import { SecretBox } from './secret-box.js';
import { TotpCredential } from './totp-credential.entity.js';
import { newTotpSecret, totpStepOf, totpUri } from './totp.js';

export interface TotpEnrolmentStart {
  secret: string;
  otpauthUri: string;
  qrCodeDataUrl: string;
}

export interface TwoFactorState {
  enabled: boolean;
  enabledAt: Date | null;
  recoveryCodesLeft: number;
}

/** A six-digit code is the authenticator's; anything else is tried as a recovery code. */
const isTotpCode = (code: string) => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/** A refused field, named in the message as the other validation errors are (`code is wrong…`). */
function wrong(field: string, reason: string): ValidationError {
  const message = `${field} ${reason}`;
  return new ValidationError(message, [{ path: [field], message }]);
}

/**
 * TOTP two-factor (RFC 6238): enrolment with a first code, recovery codes, turning it off, and the
 * second step of a password sign-in. A code is accepted once: the credential keeps the last time step
 * used, and the row is locked while a code is checked.
 */
export class TwoFactorService {
  static forRequest(ctx: AppContext): TwoFactorService {
    return new TwoFactorService(ctx.em, ctx.deps, sessionMetaOf(ctx));
  }

  private readonly box: SecretBox;

  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppDeps,
    private readonly meta: SessionMeta = {},
  ) {
    this.box = new SecretBox(deps.sessionTokens, 'totp');
  }

  async status(userId: string): Promise<TwoFactorState> {
    const credential = await this.em.findOne(TotpCredential, { user: userId, enabledAt: { $ne: null } });
    const recoveryCodesLeft = credential ? await this.em.count(RecoveryCode, { user: userId, usedAt: null }) : 0;
    return { enabled: !!credential, enabledAt: credential?.enabledAt ?? null, recoveryCodesLeft };
  }

  /** A new secret, not yet in force: the authenticator's first code confirms it. */
  async startEnrolment(user: User): Promise<TotpEnrolmentStart> {
    const secret = newTotpSecret();
    await this.em.transactional(async (em) => {
      const existing = await em.findOne(TotpCredential, { user: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (existing?.enabledAt) throw new RuleViolationError('totp_enabled', 'Two-factor sign-in is already on: turn it off first to enrol another authenticator');
      // Starting again replaces an enrolment that was never confirmed.
      if (existing) existing.secretEncrypted = this.box.seal(secret);
      else em.create(TotpCredential, { user: user.id, secretEncrypted: this.box.seal(secret) });
    });
    const otpauthUri = totpUri(secret, user.email);
    // Loaded on first use: no start-up cost for a module few requests need.
    const { toString } = await import('qrcode');
    const svg = await toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, otpauthUri, qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** The first valid code turns two-factor on; answers the ten recovery codes, shown this once. */
  confirmEnrolment(user: User, code: string): Promise<string[]> {
    return this.em.transactional(async (em) => {
      const credential = await em.findOne(TotpCredential, { user: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!credential) throw wrong('code', 'has nothing to confirm: start the enrolment first (POST /auth/2fa/totp/start)');
      if (credential.enabledAt) throw new RuleViolationError('totp_enabled', 'Two-factor sign-in is already on', ['code']);
      const step = totpStepOf(this.box.open(credential.secretEncrypted), code);
      if (step === null) throw wrong('code', 'is wrong or expired: enter the current code of the authenticator');
      credential.enabledAt = new Date();
      credential.lastUsedStep = step;
      return this.replaceRecoveryCodes(em, user.id);
    });
  }

  /** New recovery codes (the old ones stop working), after the password and a second factor. */
  async regenerateRecoveryCodes(user: User, password: string, code: string): Promise<string[]> {
    await this.checkPassword(user, password);
    return this.em.transactional(async (em) => {
      if (!(await this.acceptSecondFactor(em, user.id, code))) throw wrong('code', 'is wrong, used or expired');
      return this.replaceRecoveryCodes(em, user.id);
    });
  }

  /** Turns two-factor off, after the password and a second factor (an authenticator code or a recovery code). */
  async disable(user: User, password: string, code: string): Promise<void> {
    await this.checkPassword(user, password);
    await this.em.transactional(async (em) => {
      if (!(await this.acceptSecondFactor(em, user.id, code))) throw wrong('code', 'is wrong, used or expired');
      await em.nativeDelete(TotpCredential, { user: user.id });
      await em.nativeDelete(RecoveryCode, { user: user.id });
      await em.nativeDelete(SignInChallenge, { user: user.id });
    });
  }

  /**
   * The second step of a password sign-in: an authenticator code or a recovery code for the step's
   * token. Only now is the session started. A wrong answer counts against the step (five, then it is
   * dead), so it is committed and the refusal thrown after.
   */
  async completeSignIn(challengeToken: string, code: string | undefined, recoveryCode: string | undefined): Promise<StartedSession> {
    if (!code === !recoveryCode) {
      throw new ValidationError('Give either code or recoveryCode', [{ path: [code ? 'recoveryCode' : 'code'], message: 'give either code (the authenticator) or recoveryCode' }]);
    }
    const outcome = await this.em.transactional(async (em): Promise<StartedSession | { attemptsLeft: number }> => {
      const step = await answerSecondStep(em, this.deps, challengeToken);
      const ok = code ? await this.acceptTotp(em, step.user.id, code) : await this.acceptRecoveryCode(em, step.user.id, recoveryCode!);
      if (!ok) return { attemptsLeft: await failSecondStep(this.deps, step) };
      await finishSecondStep(this.deps, step);
      return startSession(em, this.deps, step.user, this.meta);
    });
    if ('attemptsLeft' in outcome) {
      throw new InvalidCredentialsError(code ? 'Wrong or already used authenticator code' : 'Wrong or already used recovery code', { attemptsLeft: outcome.attemptsLeft });
    }
    return outcome;
  }

  private async checkPassword(user: User, password: string): Promise<void> {
    const row = await this.em.findOne(User, { id: user.id });
    if (!row) throw new UnauthorizedError();
    if (!(await verifyPassword(row.passwordHash, password))) throw wrong('password', 'does not match');
  }

  private acceptSecondFactor(em: EntityManager, userId: string, code: string): Promise<boolean> {
    return isTotpCode(code) ? this.acceptTotp(em, userId, code) : this.acceptRecoveryCode(em, userId, code);
  }

  /** A code of the enabled authenticator for a time step after the last one used (then that step is used). */
  private async acceptTotp(em: EntityManager, userId: string, code: string): Promise<boolean> {
    const credential = await em.findOne(TotpCredential, { user: userId, enabledAt: { $ne: null } }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!credential) return false;
    const step = totpStepOf(this.box.open(credential.secretEncrypted), code);
    if (step === null || (credential.lastUsedStep !== null && credential.lastUsedStep !== undefined && step <= credential.lastUsedStep)) return false;
    credential.lastUsedStep = step;
    return true;
  }

  /** Spends an unused recovery code of this user, in one statement (two uses of one code cannot both pass). */
  private async acceptRecoveryCode(em: EntityManager, userId: string, code: string): Promise<boolean> {
    const spent = await em.nativeUpdate(RecoveryCode, { user: userId, codeHash: hashRecoveryCode(code), usedAt: null }, { usedAt: new Date() });
    return spent > 0;
  }

  private async replaceRecoveryCodes(em: EntityManager, userId: string): Promise<string[]> {
    await em.nativeDelete(RecoveryCode, { user: userId });
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    for (const code of codes) em.create(RecoveryCode, { user: userId, codeHash: hashRecoveryCode(code) });
    return codes;
  }
}
