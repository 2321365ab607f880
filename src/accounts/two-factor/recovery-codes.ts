import { createHash, randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's base32 letters: no I, L, O, U, so a code read aloud or retyped is not misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A recovery code: 16 random base32 characters (80 bits) in groups of four, `abcd-efgh-jkmn-pqrs`.
 * With 80 bits a plain SHA-256 is enough to store it (nobody can try 2^80 candidates against a
 * leaked hash), and it lets a code be found by one indexed lookup instead of checking up to ten
 * argon2 hashes (the same reasoning as the API keys and OAuth tokens).
 */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** The stored form: SHA-256 of the code as typed, ignoring case, spaces and dashes. */
export function hashRecoveryCode(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]+/g, '');
  return createHash('sha256').update(normalized).digest('hex');
}
