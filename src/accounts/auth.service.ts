import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext, AppDeps } from '../core/context.js';
import { EmailExistsError, InvalidCredentialsError, SecondFactorRequiredError, UnauthorizedError, ValidationError } from '../core/errors.js';
import { passwordResetMail, verificationMail } from '../mail/templates.js';
import { AuthToken, type AuthTokenKind } from './auth-token.entity.js';
import { endConnectorGrants, revokeApiKeys } from './end-credentials.js';
import { LoginSession } from './login-session.entity.js';
import { decoyHash, hashPassword, verifyPassword } from './password.js';
import { beginSecondStep, requiredSecondFactors } from './sign-in/second-step.js';
import { sessionMetaOf, startSession, type SessionMeta, type StartedSession } from './sign-in/start-session.js';
import { hashToken, newOneTimeToken } from './one-time-token.js';
import { User } from './user.entity.js';
import { insertTokenForEmail } from './accounts.queries.js';
import { PasswordSignInDisabledError } from './oidc/oidc-errors.js';
import { forgetSessionsHere } from './session-auth.js';

const TOKEN_TTL_MS: Record<AuthTokenKind, number> = {
  password_reset: 60 * 60 * 1000, // operations.md: reset links expire after one hour
  email_verification: 48 * 60 * 60 * 1000,
};

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type { StartedSession } from './sign-in/start-session.js';

/** Accounts: registration, sign-in sessions, password and email-verification flows. */
export class AuthService {
  /** Made for a request with the app's mailer, tokens and background work. */
  static forRequest(ctx: AppContext): AuthService {
    return new AuthService(ctx.em, ctx.deps, sessionMetaOf(ctx));
  }

  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppDeps,
    /** Where a session this service starts is opened from (the sessions list shows it). */
    private readonly meta: SessionMeta = {},
  ) {}

  async register(email: string, password: string): Promise<StartedSession> {
    if (this.deps.config.passwordSignInDisabled) throw new PasswordSignInDisabledError('registration');
    const normalized = normalizeEmail(email);
    if (await this.em.count(User, { email: normalized })) throw new EmailExistsError();
    const user = this.em.create(User, {
      email: normalized,
      passwordHash: await hashPassword(password),
      plan: this.deps.config.defaultPlan,
    });
    const verification = this.issueToken(user, 'email_verification');
    try {
      await this.em.flush();
    } catch (error) {
      // Two registrations racing for one email: the unique index decides.
      if ((error as { code?: string }).code === '23505') throw new EmailExistsError();
      throw error;
    }
    // A slow mail server must not hold the sign-up.
    this.mailLater(verificationMail(user.email, this.deps.config.baseUrl, verification));
    return this.startSession(user);
  }

  async login(email: string, password: string): Promise<StartedSession> {
    if (this.deps.config.passwordSignInDisabled) throw new PasswordSignInDisabledError('sign-in');
    const user = await this.em.findOne(User, { email: normalizeEmail(email) });
    const ok = await verifyPassword(user?.passwordHash ?? (await decoyHash()), password);
    if (!user || !ok) throw new InvalidCredentialsError();
    // Two-factor: no session yet, only a short-lived second step (src/accounts/sign-in/second-step.ts).
    const methods = await requiredSecondFactors(this.em, user);
    if (methods.length) {
      const step = await beginSecondStep(this.em, user, methods);
      throw new SecondFactorRequiredError({ challengeToken: step.challengeToken, methods: step.methods, expiresAt: step.expiresAt.toISOString() });
    }
    return this.startSession(user);
  }

  async logout(session: { userId: string; sessionId: string } | undefined): Promise<void> {
    if (!session) return;
    await this.em.nativeDelete(LoginSession, { id: session.sessionId });
    forgetSessionsHere(session.userId);
  }

  /**
   * The same work for a known and an unknown address before the answer (one statement, which inserts
   * the token only for an account), and the mail sent after it: the answer's timing tells nothing.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const issued = await this.issueTokenByEmail(normalizeEmail(email), 'password_reset');
    if (issued) this.mailLater(passwordResetMail(issued.email, this.deps.config.baseUrl, issued.token));
  }

  async resetPassword(token: string, newPassword: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    const userId = await this.em.transactional(async (em) => {
      const row = await this.consumeToken(em, token, 'password_reset');
      row.user.passwordHash = passwordHash;
      // A reset ends every session and every connector grant: whoever held the old password is out.
      await em.nativeDelete(LoginSession, { user: row.user.id });
      await endConnectorGrants(em, row.user.id);
      await this.endResetTokens(em, row.user.id);
      return row.user.id;
    });
    forgetSessionsHere(userId);
  }

  /**
   * Ends the other sessions; with `endConnectorGrants` every connector grant too, with
   * `revokeApiKeys` every Public API key (both off by default: a change is not a takeover).
   */
  async changePassword(
    userId: string,
    sessionId: string,
    currentPassword: string,
    newPassword: string,
    options: { endConnectorGrants?: boolean; revokeApiKeys?: boolean } = {},
  ): Promise<void> {
    const user = await this.em.findOne(User, { id: userId });
    if (!user) throw new UnauthorizedError();
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new ValidationError('Current password is wrong', [
        { path: ['currentPassword'], message: 'currentPassword does not match' },
      ]);
    }
    user.passwordHash = await hashPassword(newPassword);
    await this.em.transactional(async (em) => {
      em.persist(user);
      await em.nativeDelete(LoginSession, { user: user.id, id: { $ne: sessionId } });
      if (options.endConnectorGrants) await endConnectorGrants(em, user.id);
      if (options.revokeApiKeys) await revokeApiKeys(em, user.id);
      await this.endResetTokens(em, user.id);
    });
    forgetSessionsHere(user.id);
  }

  async verifyEmail(token: string): Promise<User> {
    return this.em.transactional(async (em) => {
      const row = await this.consumeToken(em, token, 'email_verification');
      row.user.emailVerifiedAt ??= new Date();
      return row.user;
    });
  }

  /** Like requestPasswordReset: one statement either way (unknown and verified addresses get no token). */
  async resendVerification(email: string): Promise<void> {
    const issued = await this.issueTokenByEmail(normalizeEmail(email), 'email_verification');
    if (issued) this.mailLater(verificationMail(issued.email, this.deps.config.baseUrl, issued.token));
  }

  private startSession(user: User): Promise<StartedSession> {
    return startSession(this.em, this.deps, user, this.meta);
  }

  private issueToken(user: User, kind: AuthTokenKind): string {
    const { token, hash } = newOneTimeToken();
    this.em.create(AuthToken, { user, kind, tokenHash: hash, expiresAt: new Date(Date.now() + TOKEN_TTL_MS[kind]) });
    return token;
  }

  /**
   * Inserts a mail token for the account with this address, if there is one (for a verification: if
   * it is not verified yet), in one statement that runs the same whether or not it inserts.
   */
  private async issueTokenByEmail(email: string, kind: AuthTokenKind): Promise<{ email: string; token: string } | null> {
    const { token, hash } = newOneTimeToken();
    const issued = await insertTokenForEmail(this.em, { email, kind, hash, expiresAt: new Date(Date.now() + TOKEN_TTL_MS[kind]), onlyUnverified: kind === 'email_verification' });
    return issued ? { email, token } : null;
  }

  /** Sends after the answer (BackgroundWork); a failure is logged like any mail failure. */
  private mailLater(mail: Parameters<AppDeps['mailer']['send']>[0]): void {
    this.deps.background.run('account mail', () => this.mail(mail));
  }

  /** A new password ends every outstanding reset link: an older mail must not undo or bypass it. */
  private async endResetTokens(em: EntityManager, userId: string): Promise<void> {
    await em.nativeUpdate(AuthToken, { user: userId, kind: 'password_reset', usedAt: null }, { usedAt: new Date() });
  }

  /** Marks a token used; one that is unknown, used or expired is refused. */
  private async consumeToken(em: EntityManager, token: string, kind: AuthTokenKind): Promise<AuthToken> {
    const row = await em.findOne(
      AuthToken,
      { tokenHash: hashToken(token), kind, usedAt: null, expiresAt: { $gt: new Date() } },
      { populate: ['user'], lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!row) {
      throw new ValidationError('The token is invalid, used or expired', [
        { path: ['token'], message: 'token is invalid, used or expired' },
      ]);
    }
    row.usedAt = new Date();
    return row;
  }

  private async mail(mail: Parameters<AppDeps['mailer']['send']>[0]): Promise<void> {
    try {
      await this.deps.mailer.send(mail);
    } catch (error) {
      // The account change stands; a mail that failed can be asked for again.
      this.deps.logger.error({ err: error, to: mail.to }, 'mail delivery failed');
    }
  }
}
