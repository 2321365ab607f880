import { randomBytes } from 'node:crypto';
import type { AppContext, AppDeps } from '../../core/context.js';
import { InvalidCredentialsError, SecondFactorRequiredError } from '../../core/errors.js';
import { normalizeEmail } from '../auth.service.js';
import { verifyPassword } from '../password.js';
import { beginSecondStep, requiredSecondFactors } from '../sign-in/second-step.js';
import { sessionMetaOf, startSession, type StartedSession } from '../sign-in/start-session.js';
import { User } from '../user.entity.js';
import { linkIdentity } from './oidc-accounts.js';
import { OidcSignInError } from './oidc-errors.js';
import type { VerifiedIdentity } from './oidc-flow.js';
import { sameString, seal, unseal } from './sealed-token.js';

/**
 * The browser half of a pending link: a random value in an HttpOnly cookie that the link token names.
 * A link token alone (in a page, a log, another browser) links nothing; nor can a page of another site
 * make a victim's browser link an identity of the attacker's (the cookie is SameSite=Lax, the token
 * cannot be guessed).
 */
export const LINK_COOKIE = 'lp_oidc_link';
export const LINK_TTL_SECONDS = 10 * 60;

export interface PendingLink extends VerifiedIdentity {
  userId: string;
}

export async function issueLink(deps: AppDeps, userId: string, identity: VerifiedIdentity): Promise<{ linkToken: string; bind: string; expiresAt: Date }> {
  const bind = randomBytes(24).toString('base64url');
  const linkToken = await seal(deps, 'link', { ...identity, userId, bind }, LINK_TTL_SECONDS);
  return { linkToken, bind, expiresAt: new Date(Date.now() + LINK_TTL_SECONDS * 1000) };
}

export async function readLink(deps: AppDeps, linkToken: string, bindCookie: string | undefined): Promise<PendingLink> {
  const payload = await unseal(deps, 'link', linkToken);
  const fields = ['userId', 'issuer', 'subject', 'email', 'returnTo', 'bind'] as const;
  if (!payload || fields.some((f) => typeof payload[f] !== 'string') || !bindCookie || !sameString(bindCookie, payload.bind as string)) {
    throw new OidcSignInError('link_invalid', 'This link request is invalid, expired (10 minutes) or from another browser: sign in with single sign-on again');
  }
  const { userId, issuer, subject, email, returnTo } = payload as Record<(typeof fields)[number], string>;
  return { userId, issuer, subject, email, returnTo };
}

/**
 * Links after the account's password, and — for an account with two-factor sign-in — its second
 * factor: then the shared second step opens (SECOND_FACTOR_REQUIRED) and nothing is linked; once it
 * is finished (which starts the session) the same request again, now signed in as that account, links.
 * So linking, which lets later sign-ins through the provider skip this service's own factors, takes
 * everything a password sign-in takes. Returns the new session, or null when one was already open.
 */
export async function completeLink(ctx: AppContext, pending: PendingLink, password: string): Promise<{ user: User; started: StartedSession | null }> {
  const user = await ctx.em.findOne(User, { id: pending.userId });
  if (!user || user.email !== normalizeEmail(pending.email)) {
    throw new OidcSignInError('link_invalid', 'The account changed since this link was requested: sign in with single sign-on again');
  }
  if (!(await verifyPassword(user.passwordHash, password))) throw new InvalidCredentialsError('Wrong password');
  const signedInAsUser = ctx.auth?.user.id === user.id;
  if (!signedInAsUser) {
    const methods = await requiredSecondFactors(ctx.em, user);
    if (methods.length) {
      const step = await beginSecondStep(ctx.em, user, methods);
      throw new SecondFactorRequiredError({ challengeToken: step.challengeToken, methods: step.methods, expiresAt: step.expiresAt.toISOString() });
    }
  }
  await linkIdentity(ctx.em, user, pending);
  const started = signedInAsUser ? null : await startSession(ctx.em, ctx.deps, user, sessionMetaOf(ctx));
  return { user, started };
}
