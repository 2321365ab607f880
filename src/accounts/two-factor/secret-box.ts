import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SessionTokens } from '../session-token.js';

/**
 * Authenticated encryption (AES-256-GCM) of small secrets at rest, such as TOTP seeds, which must be
 * read back (unlike passwords and tokens, which are hashed). The key is derived from the session
 * secret (JWT_SECRET or the generated one in DATA_DIR), so a database dump alone does not reveal them;
 * changing that secret makes enrolled authenticators unreadable, as it already ends every session.
 * Stored as `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(tokens: SessionTokens, purpose: string) {
    this.key = createHash('sha256').update(tokens.derivedSecret(`secret-box:${purpose}`)).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown sealed secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
