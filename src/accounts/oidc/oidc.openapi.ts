import { dataEnvelope, errorResponse, type Json } from '../../openapi/rest-openapi.js';
import { ref } from '../../openapi/hand-route-docs.js';

const HTML_OR_JSON = 'A browser (Accept: text/html) gets a small HTML page saying why; an API client the error envelope.';
const refusal = (what: string): Json => ({
  description: `${what} ${HTML_OR_JSON} No session is started.`,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } }, 'text/html': { schema: { type: 'string' } } },
});
const unavailable = refusal('IDENTITY_PROVIDER_UNAVAILABLE: the identity provider did not answer in time (503) or answered something unusable (502).');
const redirect = (description: string): Json => ({ description, headers: { Location: { schema: { type: 'string', format: 'uri' } } } });

/** The OpenAPI path items of oidc.routes.ts (merged into the Session API document by src/app/hand-written-routes.ts). */
export const OIDC_PATHS: Json = {
  '/auth/oidc/start': {
    get: {
      operationId: 'startOidcSignIn',
      summary: 'Start single sign-on: redirects the browser to the OpenID Connect provider',
      description: 'Authorization code flow with PKCE (S256), `state` and `nonce`; they are kept in an encrypted, HttpOnly, SameSite=Lax cookie (`lp_oidc_flow`, 10 minutes, path /api/v1/auth/oidc) that binds the flow to this browser. Counted by the auth rate limit.',
      security: [],
      parameters: [{ name: 'returnTo', in: 'query', required: false, description: 'A path of this service to land on after signing in (default `/`); anything else is ignored.', schema: { type: 'string' } }],
      responses: {
        '302': redirect("To the provider's authorization endpoint."),
        '404': refusal('NOT_FOUND: single sign-on is not configured (OIDC_ISSUER).'),
        '429': ref('RateLimited'),
        '502': unavailable,
        '503': unavailable,
      },
    },
  },
  '/auth/oidc/callback': {
    get: {
      operationId: 'finishOidcSignIn',
      summary: 'Where the provider sends the browser back: signs in, or asks for the password before linking an existing account',
      description:
        "Checks `state` against this browser's flow cookie, exchanges the code (with the PKCE verifier) and validates the ID token (signature, issuer, audience, nonce, expiry) with openid-client. The email must be present, verified (`email_verified`) and of OIDC_ALLOWED_EMAIL_DOMAINS. A linked identity signs in; an unknown email creates the account when OIDC_AUTO_CREATE is true; an email that has an account answers 409 OIDC_LINK_REQUIRED.",
      security: [],
      parameters: ['code', 'state', 'iss', 'error', 'error_description'].map((name) => ({ name, in: 'query', required: false, description: 'Set by the provider.', schema: { type: 'string' } })),
      responses: {
        '302': redirect('Signed in: the session cookie is set and the browser goes to BASE_URL + returnTo.'),
        '400': refusal('OIDC_SIGN_IN_FAILED: `details.reason` is flow_missing, state_mismatch, provider_error, code_refused (a replayed or expired code) or id_token_invalid (e.g. another audience).'),
        '403': refusal('OIDC_SIGN_IN_FAILED: `details.reason` is email_missing, email_unverified, email_domain_refused or no_account.'),
        '404': refusal('NOT_FOUND: single sign-on is not configured.'),
        '409': {
          description:
            'OIDC_LINK_REQUIRED: an account with this email exists and is not linked. `details`: `{ linkToken, email, expiresAt }` (10 minutes; also bound to this browser by the HttpOnly `lp_oidc_link` cookie). A browser gets a page asking for the password. No session is started.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } }, 'text/html': { schema: { type: 'string' } } },
        },
        '429': ref('RateLimited'),
        '502': unavailable,
        '503': unavailable,
      },
    },
  },
  '/auth/oidc/link': {
    post: {
      operationId: 'linkOidcIdentity',
      summary: 'Link the single sign-on identity to the existing account after its password, and sign in',
      description:
        'Needs the `lp_oidc_link` cookie of the browser that received the link token. For an account with two-factor sign-in the answer is 401 SECOND_FACTOR_REQUIRED (the shared second step) and nothing is linked; once that step is finished (which signs in), the same request, now signed in as that account, links.',
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['linkToken', 'password'],
              properties: { linkToken: { type: 'string', description: 'From the OIDC_LINK_REQUIRED answer.' }, password: { type: 'string', description: "The account's password." } },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'Linked and signed in (the session cookie is set unless this account was already signed in).',
          content: {
            'application/json': {
              schema: dataEnvelope({
                type: 'object',
                required: ['user', 'redirectTo'],
                properties: {
                  user: { type: 'object', required: ['id', 'email'], properties: { id: { type: 'string', format: 'uuid' }, email: { type: 'string' }, emailVerifiedAt: { type: 'string', format: 'date-time', nullable: true } } },
                  redirectTo: { type: 'string', format: 'uri', description: 'BASE_URL + the returnTo of the sign-in.' },
                },
              }),
            },
          },
        },
        '400': errorResponse('VALIDATION_ERROR: a field is missing. OIDC_SIGN_IN_FAILED (`details.reason` link_invalid): the link token is invalid, expired or from another browser.'),
        '401': errorResponse('INVALID_CREDENTIALS: wrong password (nothing linked). SECOND_FACTOR_REQUIRED: finish the second step first (`details`: challengeToken, methods, expiresAt).'),
        '404': errorResponse('NOT_FOUND: single sign-on is not configured.'),
        '409': errorResponse('OIDC_SIGN_IN_FAILED (`details.reason` link_invalid): the identity is linked to another account.'),
        '415': errorResponse('UNSUPPORTED_MEDIA_TYPE: the body must be JSON.'),
        '429': ref('RateLimited'),
        '500': ref('InternalError'),
      },
    },
  },
};
