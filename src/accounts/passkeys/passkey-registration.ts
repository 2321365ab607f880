import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import type { AppContext } from '../../core/context.js';
import type { Config } from '../../core/config.js';
import { RuleViolationError, ValidationError } from '../../core/errors.js';
import { User } from '../user.entity.js';
import { Passkey } from './passkey.entity.js';
import { relyingParty } from './relying-party.js';
import { consumeRegistrationChallenge, issueChallenge } from './webauthn-challenges.js';
import { claimedChallenge, registrationResponse } from './webauthn-response.js';
import { webauthn } from './webauthn-library.js';

/** At most this many passkeys per account (docs/security.md: Caps on lists); the list answers them whole. */
export const MAX_PASSKEYS = 20;
/** The transports WebAuthn defines; anything else a client sends is dropped, which also bounds the list. */
export const KNOWN_TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;

function refused(message: string): ValidationError {
  return new ValidationError(message, [{ path: ['response'], message }]);
}

/**
 * Adding a passkey to the signed-in account. A discoverable credential (`residentKey: 'required'`) so it
 * can sign in without an e-mail typed, with user verification required: a passkey may later be the
 * only thing presented, and then it must be two factors (the device plus the PIN or biometric that
 * unlocks it).
 */
export class PasskeyRegistration {
  static forRequest(ctx: AppContext): PasskeyRegistration {
    return new PasskeyRegistration(ctx.em, ctx.deps.config);
  }

  constructor(
    private readonly em: EntityManager,
    private readonly config: Config,
  ) {}

  async start(user: User): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.em.find(Passkey, { user: user.id }, { fields: ['credentialId', 'transports'] });
    if (existing.length >= MAX_PASSKEYS) throw new RuleViolationError('passkey_limit', `An account holds at most ${MAX_PASSKEYS} passkeys; remove one first`);
    const rp = relyingParty(this.config);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userDisplayName: user.email,
      // The WebAuthn user handle: the account id (no personal data), so every passkey of one account shares it.
      userID: Buffer.from(user.id.replace(/-/g, ''), 'hex'),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await issueChallenge(this.em, 'registration', options.challenge, user.id);
    return options;
  }

  async finish(userId: string, name: string, value: Record<string, unknown>): Promise<Passkey> {
    const response = registrationResponse(value);
    const challenge = claimedChallenge(value);
    if (!challenge || !(await consumeRegistrationChallenge(this.em, userId, challenge))) {
      throw refused('No open passkey registration matches this response (expired or already used); start again');
    }
    const rp = relyingParty(this.config);
    let info;
    try {
      const result = await (await webauthn()).verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true });
      if (!result.verified) throw new Error('not verified');
      info = result.registrationInfo;
    } catch (error) {
      throw refused(`The passkey could not be verified: ${(error as Error).message}`);
    }
    return this.em.transactional(async (em) => {
      // The user row is the lock that keeps two registrations from passing the cap together.
      await em.findOneOrFail(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if ((await em.count(Passkey, { user: userId })) >= MAX_PASSKEYS) throw new RuleViolationError('passkey_limit', `An account holds at most ${MAX_PASSKEYS} passkeys; remove one first`);
      if (await em.count(Passkey, { credentialId: info.credential.id })) throw refused('This passkey is already registered');
      const transports = (info.credential.transports ?? response.response.transports ?? []).filter((t): t is (typeof KNOWN_TRANSPORTS)[number] => (KNOWN_TRANSPORTS as readonly string[]).includes(t));
      return em.create(Passkey, {
        user: userId,
        name: name.trim(),
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey),
        counter: info.credential.counter,
        transports: [...new Set(transports)],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
      });
    });
  }
}
