import { createHash, randomBytes } from 'node:crypto';

/** What is stored for a code, token or client secret: its SHA-256 in hex (the values are 256 random bits). */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A new opaque value with a readable prefix (`lpat_` access, `lprt_` refresh, `lpac_` code). */
export function newSecret(prefix: 'lpat_' | 'lprt_' | 'lpac_'): { value: string; hash: string } {
  const value = prefix + randomBytes(32).toString('base64url');
  return { value, hash: hashSecret(value) };
}

/** Lifetimes (operations.md: access tokens expire within an hour). */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const AUTHORIZATION_CODE_TTL_SECONDS = 5 * 60;
