import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey for tests that run without a browser (the sign-in paths table): a P-256 key,
 * user verification always given, answers built as WebAuthn Level 3 describes them (authenticator
 * data, `none` attestation, ES256 signatures over authData ‖ SHA-256(clientDataJSON)). The browser test
 * (passkeys.browser.test.ts) uses Chromium's own virtual authenticator instead.
 */
export class SoftAuthenticator {
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Uint8Array;
  readonly credentialId = randomBytes(16).toString('base64url');
  private userHandle = '';
  private counter = 0;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    this.cosePublicKey = isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
  }

  /** The answer to `startPasskeyRegistration`'s options, as `PublicKeyCredential.toJSON()` gives it. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin: string): Record<string, unknown> {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, origin);
    const id = Buffer.from(this.credentialId, 'base64url');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(id.length);
    const authData = Buffer.concat([this.authData(options.rp.id ?? new URL(origin).hostname, 0x45), Buffer.alloc(16), length, id, this.cosePublicKey]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: clientDataJSON.toString('base64url'), attestationObject: Buffer.from(attestationObject).toString('base64url'), transports: ['internal'] },
    };
  }

  /** The answer to authentication options (`startPasskeySignIn`, `startSecondFactorPasskey`). */
  get(options: { challenge: string; rpId?: string }, origin: string): Record<string, unknown> {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const authData = this.authData(options.rpId ?? new URL(origin).hostname, 0x05);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), this.privateKey);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: 'public-key',
      clientExtensionResults: {},
      response: { clientDataJSON: clientDataJSON.toString('base64url'), authenticatorData: authData.toString('base64url'), signature: signature.toString('base64url'), userHandle: this.userHandle },
    };
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** rpIdHash ‖ flags (UP 0x01, UV 0x04, AT 0x40) ‖ signature counter. */
  private authData(rpId: string, flags: number): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(++this.counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counter]);
  }
}
