import { Secret, TOTP } from 'otpauth';

/** What authenticator apps expect: SHA-1, six digits, 30-second steps (RFC 6238's defaults). */
const PERIOD = 30;
const DIGITS = 6;
export const TOTP_ISSUER = 'Life Planner';

/** A new 160-bit secret (RFC 4226's recommended length), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The `otpauth://totp/…` URI an app reads from the QR code. */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/**
 * The time step a code was made for, within one step either side of `now` (clock drift), or null. The
 * caller refuses a step at or before the last one accepted: a code works once.
 */
export function totpStepOf(secret: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
}
