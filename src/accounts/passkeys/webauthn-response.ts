import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { ValidationError } from '../../core/errors.js';

/**
 * The browser's `PublicKeyCredential.toJSON()` as the API receives it (a JSON object). Only the
 * fields this code reads itself are checked here; the verification library checks the rest and
 * refuses what is malformed.
 */
function credentialJson(value: Record<string, unknown>, field: string): { id: string; clientDataJSON: string } {
  const inner = value.response as Record<string, unknown> | undefined;
  if (typeof value.id !== 'string' || !value.id || typeof inner !== 'object' || inner === null || typeof inner.clientDataJSON !== 'string') {
    throw new ValidationError(`${field} is not a WebAuthn credential`, [{ path: [field], message: `${field} must be PublicKeyCredential.toJSON(): { id, rawId, type, response: { clientDataJSON, … } }` }]);
  }
  return { id: value.id, clientDataJSON: inner.clientDataJSON };
}

export function registrationResponse(value: Record<string, unknown>): RegistrationResponseJSON {
  credentialJson(value, 'response');
  return value as unknown as RegistrationResponseJSON;
}

export function authenticationResponse(value: Record<string, unknown>): AuthenticationResponseJSON {
  credentialJson(value, 'response');
  return value as unknown as AuthenticationResponseJSON;
}

/** The challenge the client says it answered (the library then checks it is the expected one). */
export function claimedChallenge(value: Record<string, unknown>): string | null {
  const { clientDataJSON } = credentialJson(value, 'response');
  try {
    const client = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof client.challenge === 'string' ? client.challenge : null;
  } catch {
    return null;
  }
}
