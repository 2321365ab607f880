import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** How much of the secret `secretPrefix` shows: `whsec_` and 6 characters. */
const SHOWN_CHARS = SECRET_PREFIX.length + 6;

/** `whsec_` + 32 random bytes (base64url). */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

export function secretPrefixOf(secret: string): string {
  return secret.slice(0, SHOWN_CHARS);
}

/** `sha256=<hex HMAC-SHA256 of the exact body bytes>` keyed with the whole `whsec_…` secret. */
export function signature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Webhook secrets must be readable to sign, so they are encrypted rather than hashed: AES-256-GCM with
 * a key derived (HKDF-SHA256) from the JWT secret. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(rootSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', rootSecret, 'life-planner', 'webhook-secret-encryption-v1', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unreadable webhook secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
