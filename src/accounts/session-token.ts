import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export { SESSION_COOKIE } from '../core/session-cookie.js';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/** Signs and reads the session JWT carried in the httpOnly cookie (HS256). */
export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A key for another purpose (form tokens), derived from the session secret so there is one secret to keep. */
  derivedSecret(purpose: string): string {
    return createHmac('sha256', this.key).update(`life-planner:${purpose}`).digest('base64url');
  }

  sign(claims: SessionClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /**
   * Verified claims of a token, or null: signed by this secret with HS256 (no other algorithm, no
   * critical headers), unexpired, naming a user and a session. Synchronous (`createHmac`): WebCrypto's
   * HMAC cost every signed-in request a promise and a job (issue 36). Tokens are those `sign` makes.
   */
  verify(token: string, nowMs = Date.now()): VerifiedSession | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = createHmac('sha256', this.key).update(`${header}.${payload}`).digest('base64url');
    const given = Buffer.from(signature);
    // Compared as text: only the canonical encoding of the right signature passes.
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) return null;
    const head = parseSegment(header);
    if (head?.alg !== 'HS256' || 'crit' in head || 'b64' in head) return null;
    const claims = parseSegment(payload);
    if (!claims || typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return null;
    const { exp, nbf } = claims;
    if (typeof exp !== 'number' || exp * 1000 <= nowMs) return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf * 1000 > nowMs)) return null;
    return { userId: claims.sub, sessionId: claims.sid, expiresAtMs: exp * 1000 };
  }
}

/** A verified token's claims and when it expires. */
export interface VerifiedSession extends SessionClaims {
  expiresAtMs: number;
}

/** A JWT segment's JSON object, or undefined when it is not one. */
function parseSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

declare module '../core/context.js' {
  interface AppDeps {
    sessionTokens: SessionTokens;
  }
}
