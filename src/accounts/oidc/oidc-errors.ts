import { AppError } from '../../core/errors.js';

/** Why an OpenID Connect sign-in was refused (`details.reason`), for clients and the error page. */
export type OidcRefusal =
  | 'oidc_disabled'
  | 'flow_missing'
  | 'state_mismatch'
  | 'provider_error'
  | 'code_refused'
  | 'id_token_invalid'
  | 'email_missing'
  | 'email_unverified'
  | 'email_domain_refused'
  | 'no_account'
  | 'link_invalid';

/** A refused sign-in: nothing was signed in. 400 for a broken flow, 403 for a rule of this service. */
export class OidcSignInError extends AppError {
  constructor(reason: OidcRefusal, message: string, status = 400) {
    super('OIDC_SIGN_IN_FAILED', status, message, { reason });
  }
}

/** The provider cannot be reached (503) or answered something unusable (502): try again later. */
export class IdentityProviderUnavailableError extends AppError {
  constructor(message: string, status: 502 | 503 = 503) {
    super('IDENTITY_PROVIDER_UNAVAILABLE', status, message);
  }
}

/**
 * The provider vouched for an email that already has an account here, not yet linked: the person
 * proves that account's password (`POST /auth/oidc/link` with `linkToken`) before it is linked.
 */
export class OidcLinkRequiredError extends AppError {
  constructor(details: { linkToken: string; email: string; expiresAt: string }) {
    super('OIDC_LINK_REQUIRED', 409, 'An account with this email exists: confirm its password to link your single sign-on account', details);
  }
}

/** PASSWORD_SIGN_IN_DISABLED: accounts sign in through the identity provider (or a passkey) only. */
export class PasswordSignInDisabledError extends AppError {
  constructor(what: 'sign-in' | 'registration') {
    super(
      'PASSWORD_SIGN_IN_DISABLED',
      403,
      what === 'sign-in'
        ? 'Signing in with a password is turned off here: use single sign-on (GET /api/v1/auth/oidc/start)'
        : 'Registering with a password is turned off here: sign in with single sign-on, which creates accounts when the administrator allows it',
    );
  }
}
