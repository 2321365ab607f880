/**
 * The auth mutations: signing up and in and out, and the password and e-mail flows. Each one executed is
 * one hit on the auth rate limit, whichever way it arrives (the `/api/v1/auth/…` routes, or `/graphql`,
 * src/app/auth-operations.ts and src/app/auth-limit-plugin.ts); reading who is signed in (`me`) is not one. Declared here, once, beside the
 * resolvers they name.
 */
export const AUTH_MUTATIONS: ReadonlySet<string> = new Set([
  'register',
  'login',
  'logout',
  'requestPasswordReset',
  'resetPassword',
  'changePassword',
  'verifyEmail',
  'resendVerification',
  // Two-factor (src/accounts/two-factor) and the sessions list's revocations (src/accounts/sessions).
  'completeSignIn',
  'startTotpEnrolment',
  'confirmTotpEnrolment',
  'regenerateRecoveryCodes',
  'disableTotp',
  'revokeSession',
  'revokeOtherSessions',
  // Passkeys: signing in with one (alone or as the second factor), and managing them under /auth/passkeys.
  'startPasskeyRegistration',
  'finishPasskeyRegistration',
  'renamePasskey',
  'deletePasskey',
  'startPasskeySignIn',
  'finishPasskeySignIn',
  'startSecondFactorPasskey',
  'completeSignInWithPasskey',
]);
