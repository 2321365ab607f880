import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { AppContext, AppDeps } from '../../core/context.js';
import { InvalidCredentialsError } from '../../core/errors.js';
import { sessionMetaOf, startSession, type SessionMeta, type StartedSession } from '../sign-in/start-session.js';
import { User } from '../user.entity.js';
import { assertionOptions, PASSKEY_REFUSED, verifyAssertion } from './passkey-assertion.js';
import { consumeSignInChallenge, issueChallenge } from './webauthn-challenges.js';

/**
 * Signing in with a passkey alone (no e-mail, no password): the browser offers the discoverable
 * passkeys it holds for this RP ID, and the assertion names its credential and thus the account. User
 * verification is required, so the passkey counts as two factors (the device, and the PIN or biometric
 * that unlocked it) and the session starts at once, with or without TOTP on the account.
 */
export class PasskeySignIn {
  static forRequest(ctx: AppContext): PasskeySignIn {
    return new PasskeySignIn(ctx.em, ctx.deps, sessionMetaOf(ctx));
  }

  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppDeps,
    private readonly meta: SessionMeta,
  ) {}

  /** Options plus the id that finishing names (the challenge itself stays on the server to compare). */
  async start(): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const options = await assertionOptions(this.em, this.deps.config, { userVerification: 'required' });
    const row = await issueChallenge(this.em, 'sign_in', options.challenge, null);
    return { challengeId: row.id, options };
  }

  async finish(challengeId: string, response: Record<string, unknown>): Promise<StartedSession> {
    // Claimed before verifying, so a failed or replayed answer has spent it too.
    const challenge = await consumeSignInChallenge(this.em, challengeId);
    if (!challenge) throw new InvalidCredentialsError(PASSKEY_REFUSED);
    const userId = await verifyAssertion(this.em, this.deps.config, response, { challenge, requireUserVerification: true });
    const user = await this.em.findOneOrFail(User, { id: userId });
    return startSession(this.em, this.deps, user, this.meta);
  }
}
