import * as client from 'openid-client';
import type { OidcSettings } from '../../core/config.js';
import { IdentityProviderUnavailableError, OidcSignInError } from './oidc-errors.js';

/**
 * The provider's configuration (its discovery document and our client), read on first use and kept:
 * the service starts even while the provider is down, and a failed discovery is tried again by the
 * next request instead of being cached. Every request to the provider (discovery, token, keys) is
 * bounded by OIDC_TIMEOUT_MS.
 */
const discovered = new WeakMap<OidcSettings, Promise<client.Configuration>>();

export function providerConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  let pending = discovered.get(settings);
  if (!pending) {
    pending = discover(settings);
    discovered.set(settings, pending);
    pending.catch(() => discovered.delete(settings));
  }
  return pending;
}

async function discover(settings: OidcSettings): Promise<client.Configuration> {
  // openid-client refuses plain http; an http issuer is for a provider on the same host or in tests.
  const insecure = new URL(settings.issuer).protocol === 'http:';
  try {
    return await client.discovery(
      new URL(settings.issuer),
      settings.clientId,
      settings.clientSecret ? { client_secret: settings.clientSecret } : undefined,
      // client_secret_basic is the spec's default method; without a secret a public client (PKCE only).
      settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
      { timeout: settings.timeoutMs / 1000, execute: insecure ? [client.allowInsecureRequests] : [] },
    );
  } catch (error) {
    throw providerFailure(error, 'discovery');
  }
}

/** The provider could not be asked at all: down, slow, or not an OpenID provider at that address. */
function unreachable(error: unknown): boolean {
  if (error instanceof TypeError) return true; // fetch failed: refused, reset, DNS
  const code = (error as { code?: string }).code;
  return code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT';
}

/**
 * What a failure of openid-client means for the person: the provider unreachable (503) or answering
 * nonsense (502), the provider refusing the code (a replay, an expired code), or an ID token that
 * failed validation (issuer, audience, nonce, signature, expiry).
 */
export function providerFailure(error: unknown, step: 'discovery' | 'callback'): Error {
  if (unreachable(error)) return new IdentityProviderUnavailableError('The identity provider did not answer in time; try again later');
  if (step === 'discovery') return new IdentityProviderUnavailableError('The identity provider answered its discovery request with something unusable; try again later', 502);
  if (error instanceof client.AuthorizationResponseError) {
    return new OidcSignInError('provider_error', `The identity provider refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`);
  }
  if (error instanceof client.ResponseBodyError) {
    // invalid_grant: a code used twice, expired, or issued to another client. Anything else
    // (invalid_client …) is a misconfiguration between this service and the provider.
    if (error.error === 'invalid_grant') return new OidcSignInError('code_refused', 'The identity provider refused the authorization code (used already, or expired); sign in again');
    return new IdentityProviderUnavailableError(`The identity provider refused this service's token request (${error.error})`, 502);
  }
  const code = (error as { code?: string }).code;
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
    return new IdentityProviderUnavailableError('The identity provider answered with an error; try again later', 502);
  }
  // openid-client's message is generic; its cause names the check (`unexpected JWT "aud" (audience) claim value`).
  const cause = (error as { cause?: unknown }).cause;
  const reason = cause instanceof Error ? cause.message : (error as Error).message;
  return new OidcSignInError('id_token_invalid', `The identity provider's answer failed validation: ${reason}`);
}

/**
 * Whether the provider answers now (/readyz): one GET of its discovery document, which must be one.
 * Not the cached configuration — that says only that it answered once.
 */
export async function probeProvider(settings: OidcSettings, signal: AbortSignal): Promise<void> {
  const url = `${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'error' });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown };
  if (typeof document.issuer !== 'string') throw new Error('discovery answered something else');
}
