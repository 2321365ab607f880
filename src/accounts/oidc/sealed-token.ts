import { timingSafeEqual } from 'node:crypto';
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';
import type { AppDeps } from '../../core/context.js';

/**
 * Short-lived encrypted tokens (JWE, dir + A256GCM) for the sign-in flow's cookie and the pending link:
 * the browser carries them but can neither read (the PKCE verifier, the nonce) nor change them. The key
 * is derived per purpose from the session secret, so one kind of token never passes for another.
 */
function keyFor(deps: AppDeps, purpose: string): Uint8Array {
  return new Uint8Array(Buffer.from(deps.sessionTokens.derivedSecret(`oidc:${purpose}`), 'base64url'));
}

export async function seal(deps: AppDeps, purpose: string, payload: JWTPayload, ttlSeconds: number): Promise<string> {
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .encrypt(keyFor(deps, purpose));
}

/** The payload, or null when the token is missing, forged, of another purpose or expired. */
export async function unseal(deps: AppDeps, purpose: string, token: string | undefined): Promise<JWTPayload | null> {
  if (!token) return null;
  try {
    return (await jwtDecrypt(token, keyFor(deps, purpose))).payload;
  } catch {
    return null;
  }
}

/** Compares a value from the request with the sealed one in constant time. */
export function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
