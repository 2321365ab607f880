import { Secret, TOTP } from 'otpauth';
import type { HttpClient } from '../../../test/support/http-client.js';

const PERIOD_MS = 30_000;

/** The code an authenticator app shows for `secret`, `steps` time steps from now (otpauth itself, as an app would). */
export function totpCode(secret: string, steps = 0, now = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: now + steps * PERIOD_MS });
}

/**
 * Waits, when the current 30-second step is about to end, for the next one to begin, so a test using
 * the codes of steps -1, 0 and +1 stays within the server's one-step window while it runs.
 */
export async function freshTimeStep(atLeastMs = 12_000): Promise<void> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS);
  if (left < atLeastMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** A code that is not the current one (nor a neighbour's). */
export function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((step) => totpCode(secret, step)));
  let guess = 123456;
  while (near.has(String(guess).padStart(6, '0'))) guess = (guess + 1) % 1_000_000;
  return String(guess).padStart(6, '0');
}

/**
 * Turns two-factor on for a signed-in client through the Session API, confirming with the code of the
 * previous time step (so the current and next ones are left for the test). Answers the secret and
 * the recovery codes.
 */
export async function enableTotp(client: HttpClient): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await client.post('/api/v1/auth/2fa/totp/start', {});
  if (started.status !== 200) throw new Error(`totp start: ${started.status} ${started.text}`);
  const secret = started.body.data.secret as string;
  const confirmed = await client.post('/api/v1/auth/2fa/totp/confirm', { code: totpCode(secret, -1) });
  if (confirmed.status !== 200) throw new Error(`totp confirm: ${confirmed.status} ${confirmed.text}`);
  return { secret, recoveryCodes: confirmed.body.data.recoveryCodes as string[] };
}
