/** http_ece (web-push's RFC 8188/8291 implementation), used by the tests to decrypt a push payload. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export function decrypt(buffer: Buffer, params: { version: 'aes128gcm' | 'aesgcm'; privateKey?: ECDH; authSecret?: string; dh?: string; salt?: string }): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
