import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

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

  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch {
      return null;
    }
  }
}

declare module '../core/context.js' {
  interface AppDeps {
    sessionTokens: SessionTokens;
  }
}
