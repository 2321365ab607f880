import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Config } from '../../core/config.js';
import { InvalidCredentialsError } from '../../core/errors.js';
import { Passkey } from './passkey.entity.js';
import { relyingParty } from './relying-party.js';
import { authenticationResponse } from './webauthn-response.js';
import { webauthn } from './webauthn-library.js';

export const PASSKEY_REFUSED = 'The passkey could not be verified';

/**
 * Options for `navigator.credentials.get()`. Without `userId` no credentials are listed (discoverable:
 * the authenticator offers the passkeys it holds for this RP); with it, only that user's.
 */
export async function assertionOptions(em: EntityManager, config: Config, options: { userId?: string; userVerification: 'required' | 'preferred' }): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowCredentials = options.userId ? (await em.find(Passkey, { user: options.userId }, { fields: ['credentialId', 'transports'] })).map((p) => ({ id: p.credentialId, transports: p.transports })) : undefined;
  return (await webauthn()).generateAuthenticationOptions({ rpID: relyingParty(config).id, allowCredentials, userVerification: options.userVerification });
}

/**
 * Verifies an assertion against the challenge the caller has already claimed (single use), BASE_URL's
 * origin and RP ID, and the stored key, then records the new counter. Every failure is the same 401
 * INVALID_CREDENTIALS, so an answer tells nothing about which credentials exist. `userId` restricts the
 * credential to one account (the second factor); `requireUserVerification` is set when the passkey
 * alone signs in. Returns the owner's id.
 */
export async function verifyAssertion(
  em: EntityManager,
  config: Config,
  value: Record<string, unknown>,
  expected: { challenge: string; userId?: string; requireUserVerification: boolean },
): Promise<string> {
  const response = authenticationResponse(value);
  const rp = relyingParty(config);
  return em.transactional(async (tx) => {
    // Locked: two assertions of one credential verify one after the other, each against the counter the other left.
    const passkey = await tx.findOne(Passkey, { credentialId: response.id, ...(expected.userId ? { user: expected.userId } : {}) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!passkey) throw new InvalidCredentialsError(PASSKEY_REFUSED);
    // A discoverable credential names its account (the user handle set at registration): it must be the owner.
    const handle = response.response.userHandle;
    if (handle && handle !== Buffer.from(passkey.user.replace(/-/g, ''), 'hex').toString('base64url')) throw new InvalidCredentialsError(PASSKEY_REFUSED);
    let info;
    try {
      const result = await (await webauthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: expected.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
        requireUserVerification: expected.requireUserVerification,
      });
      if (!result.verified) throw new Error('not verified');
      info = result.authenticationInfo;
    } catch {
      throw new InvalidCredentialsError(PASSKEY_REFUSED);
    }
    passkey.counter = info.newCounter;
    passkey.backedUp = info.credentialBackedUp;
    passkey.lastUsedAt = new Date();
    return passkey.user;
  });
}
