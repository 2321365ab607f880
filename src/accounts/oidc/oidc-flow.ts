import * as client from 'openid-client';
import type { Config, OidcSettings } from '../../core/config.js';
import type { AppDeps } from '../../core/context.js';
import { providerConfiguration, providerFailure } from './oidc-client.js';
import { OidcSignInError } from './oidc-errors.js';
import { safeReturnTo } from './return-to.js';
import { sameString, seal, unseal } from './sealed-token.js';

/** The routes' base below BASE_URL; the flow and link cookies are sent to these routes only. */
export const OIDC_PATH = '/api/v1/auth/oidc';
/** The flow cookie: state, nonce, PKCE verifier and return path of the sign-in started in this browser. */
export const FLOW_COOKIE = 'lp_oidc_flow';
export const FLOW_TTL_SECONDS = 10 * 60;

/** BASE_URL + the callback route, read per request (without BASE_URL it follows the port taken). */
export function redirectUri(config: Config): string {
  return `${config.baseUrl}${OIDC_PATH}/callback`;
}

/** What the provider vouched for, once the ID token passed validation. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  returnTo: string;
}

/**
 * The authorization request (code flow, PKCE S256, state, nonce) and the sealed flow cookie that binds
 * it to this browser: the callback is accepted only from the browser that started it.
 */
export async function beginSignIn(deps: AppDeps, settings: OidcSettings, returnTo: unknown): Promise<{ url: string; flowCookie: string }> {
  const configuration = await providerConfiguration(settings);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(deps.config),
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const flowCookie = await seal(deps, 'flow', { state, nonce, verifier, returnTo: safeReturnTo(returnTo) }, FLOW_TTL_SECONDS);
  return { url: url.href, flowCookie };
}

/** `email_verified` as providers send it (some as the string "true"). */
function isVerified(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * The callback: the state must be this browser's, then openid-client exchanges the code (with the PKCE
 * verifier) and validates the ID token (signature, issuer, audience, nonce, expiry). The email comes
 * from the ID token, or from userinfo when the provider keeps it there; it must be verified and of an
 * allowed domain.
 */
export async function finishSignIn(deps: AppDeps, settings: OidcSettings, query: string, flowCookie: string | undefined): Promise<VerifiedIdentity> {
  const flow = await unseal(deps, 'flow', flowCookie);
  if (!flow || typeof flow.state !== 'string' || typeof flow.nonce !== 'string' || typeof flow.verifier !== 'string') {
    throw new OidcSignInError('flow_missing', 'This sign-in was not started in this browser, or took longer than 10 minutes: start it again');
  }
  const params = new URLSearchParams(query);
  const state = params.get('state');
  if (!state || !sameString(state, flow.state)) {
    throw new OidcSignInError('state_mismatch', 'The sign-in answer does not belong to the sign-in started in this browser (state mismatch): start it again');
  }
  const configuration = await providerConfiguration(settings);
  const currentUrl = new URL(`${redirectUri(deps.config)}?${params.toString()}`);
  let claims: client.IDToken;
  let accessToken: string;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims()!;
    accessToken = tokens.access_token;
  } catch (error) {
    throw providerFailure(error, 'callback');
  }
  let email: unknown = claims.email;
  let verified: unknown = claims.email_verified;
  if (email === undefined) {
    try {
      const info = await client.fetchUserInfo(configuration, accessToken, claims.sub);
      email = info.email;
      verified = info.email_verified;
    } catch (error) {
      throw providerFailure(error, 'callback');
    }
  }
  if (typeof email !== 'string' || !email.includes('@')) {
    throw new OidcSignInError('email_missing', 'The identity provider did not share an email address (the "email" scope): this service needs one', 403);
  }
  if (!isVerified(verified)) {
    throw new OidcSignInError('email_unverified', 'The identity provider has not verified this email address; verify it there first', 403);
  }
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (settings.allowedEmailDomains.length && !settings.allowedEmailDomains.includes(domain)) {
    throw new OidcSignInError('email_domain_refused', `Accounts of ${domain} may not sign in here`, 403);
  }
  return { issuer: claims.iss, subject: claims.sub, email, returnTo: safeReturnTo(flow.returnTo) };
}
