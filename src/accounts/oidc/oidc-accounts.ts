import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../../core/context.js';
import { normalizeEmail } from '../auth.service.js';
import { hashPassword } from '../password.js';
import { User } from '../user.entity.js';
import { OidcSignInError } from './oidc-errors.js';
import type { VerifiedIdentity } from './oidc-flow.js';
import { OidcIdentity } from './oidc-identity.entity.js';

/** Who a verified identity signs in, or the account it may be linked to once its password is proven. */
export type AccountMatch = { kind: 'linked'; user: User } | { kind: 'link-required'; user: User };

const UNIQUE_VIOLATION = '23505';

/**
 * An identity already linked signs its user in. An account with the same email is never linked by the
 * email alone (the provider might let anyone claim an address this service's user owns): the person
 * proves its password first. Otherwise OIDC_AUTO_CREATE decides whether the account is made.
 */
export async function matchAccount(em: EntityManager, deps: AppDeps, identity: VerifiedIdentity, autoCreate: boolean): Promise<AccountMatch> {
  const link = await em.findOne(OidcIdentity, { issuer: identity.issuer, subject: identity.subject }, { populate: ['user'] });
  if (link) {
    link.lastUsedAt = new Date();
    link.email = identity.email;
    await em.flush();
    return { kind: 'linked', user: link.user };
  }
  const existing = await em.findOne(User, { email: normalizeEmail(identity.email) });
  if (existing) return { kind: 'link-required', user: existing };
  if (!autoCreate) {
    throw new OidcSignInError('no_account', 'No account here uses this email, and this service does not create accounts at sign-in: ask its administrator', 403);
  }
  return { kind: 'linked', user: await createAccount(em, deps, identity) };
}

/**
 * A new verified account with its link. Its password hash is of 32 random bytes nobody knows, so no
 * password signs in until the person sets one through "forgot password" (which proves the mailbox).
 */
async function createAccount(em: EntityManager, deps: AppDeps, identity: VerifiedIdentity): Promise<User> {
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  try {
    return await em.transactional(async (tx) => {
      const user = tx.create(User, { email: normalizeEmail(identity.email), passwordHash, emailVerifiedAt: new Date(), plan: deps.config.defaultPlan });
      tx.create(OidcIdentity, { user, issuer: identity.issuer, subject: identity.subject, email: identity.email });
      return user;
    });
  } catch (error) {
    // Two first sign-ins racing (two tabs), or a registration of the same email meanwhile: sign in
    // again decides from what now exists.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new OidcSignInError('no_account', 'This account was just created by another sign-in: sign in again', 409);
    throw error;
  }
}

/** Links the identity to the user (idempotent for the same user); an identity of someone else is refused. */
export async function linkIdentity(em: EntityManager, user: User, identity: Omit<VerifiedIdentity, 'returnTo'>): Promise<void> {
  const existing = await em.findOne(OidcIdentity, { issuer: identity.issuer, subject: identity.subject });
  if (existing) {
    if (existing.user.id !== user.id) throw new OidcSignInError('link_invalid', 'This single sign-on account is already linked to another account here', 409);
    existing.lastUsedAt = new Date();
    await em.flush();
    return;
  }
  em.create(OidcIdentity, { user, issuer: identity.issuer, subject: identity.subject, email: identity.email });
  try {
    await em.flush();
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new OidcSignInError('link_invalid', 'This single sign-on account was just linked by another request', 409);
    throw error;
  }
}
