import { createHash, randomBytes } from 'node:crypto';

/** Spec: `svc_` followed by 32 random bytes in base64url (43 characters). */
export const API_KEY_PREFIX = 'svc_';
export const API_KEY_PATTERN = /^svc_[A-Za-z0-9_-]{43}$/;
/** How much of the key is kept in clear to tell keys apart: `svc_` and 8 characters. */
const SHOWN_PREFIX_LENGTH = 12;

export interface NewKeySecret {
  key: string;
  keyPrefix: string;
  keyHash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function newKeySecret(): NewKeySecret {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, keyPrefix: key.slice(0, SHOWN_PREFIX_LENGTH), keyHash: hashApiKey(key) };
}
