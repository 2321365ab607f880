/**
 * `@simplewebauthn/server`, loaded on the first passkey operation: its import costs ~300 ms, which every
 * start of the service (and every test file starting one) would otherwise pay for a feature most
 * requests never touch.
 */
let loading: Promise<typeof import('@simplewebauthn/server')> | undefined;

export function webauthn(): Promise<typeof import('@simplewebauthn/server')> {
  return (loading ??= import('@simplewebauthn/server'));
}
