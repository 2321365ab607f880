import escapeHtml from 'escape-html';
import { CSRF_FIELD } from '../../http/form-csrf.js';
import { AREA_LABELS, SCOPE_AREAS, type ScopeAccess, type ScopeArea } from '../scopes/connector-scopes.js';
import { CONSENT_ACCESS_FIELD, CONSENT_AREAS_FIELD } from './consent-form.js';

/** The authorization request's parameters, carried through the sign-in and consent forms as hidden fields. */
export const AUTHORIZE_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const;
export type AuthorizeRequest = Partial<Record<(typeof AUTHORIZE_FIELDS)[number], string>>;

function hidden(request: AuthorizeRequest, csrf: string): string {
  const fields = AUTHORIZE_FIELDS.filter((name) => request[name] !== undefined).map(
    (name) => `    <input type="hidden" name="${name}" value="${escapeHtml(request[name]!)}">`,
  );
  fields.push(`    <input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrf)}">`);
  return fields.join('\n');
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${escapeHtml(title)}</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; }
    label { display: block; margin: .75rem 0 .25rem; }
    fieldset { margin: 1rem 0; border: 1px solid #ccc; }
    fieldset label { margin: .35rem 0; }
    input[type=email], input[type=password], input[type=text] { width: 100%; padding: .5rem; box-sizing: border-box; }
    button { padding: .5rem 1.25rem; margin: 1rem .5rem 0 0; }
    .error { color: #b00020; }
    .muted { color: #555; font-size: .9rem; }
  </style>
</head>
<body>
${body}
</body>
</html>
`;
}

export function signInPage(input: { clientName: string; request: AuthorizeRequest; csrf: string; error?: string; email?: string }): string {
  const error = input.error ? `  <p class="error" role="alert">${escapeHtml(input.error)}</p>\n` : '';
  return layout(
    'Sign in to connect an assistant',
    `  <h1>Sign in</h1>
  <p><strong>${escapeHtml(input.clientName)}</strong> asks to connect to your life-planner account. Sign in to continue.</p>
${error}  <form method="post" action="/authorize">
${hidden(input.request, input.csrf)}
    <input type="hidden" name="form" value="sign-in">
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Sign in</button>
  </form>`,
  );
}

/**
 * The second page of a sign-in for an account with two-factor: the authenticator code (or a recovery
 * code) for the step the password opened, whose token travels as a hidden field beside the CSRF token.
 */
export function secondFactorPage(input: { clientName: string; request: AuthorizeRequest; csrf: string; challengeToken: string; error?: string }): string {
  const error = input.error ? `  <p class="error" role="alert">${escapeHtml(input.error)}</p>\n` : '';
  return layout(
    'Two-factor sign-in',
    `  <h1>Enter your code</h1>
  <p>Your account has two-factor sign-in. Enter the code your authenticator app shows for life-planner, or one of your recovery codes, to connect <strong>${escapeHtml(input.clientName)}</strong>.</p>
${error}  <form method="post" action="/authorize">
${hidden(input.request, input.csrf)}
    <input type="hidden" name="form" value="second-factor">
    <input type="hidden" name="challengeToken" value="${escapeHtml(input.challengeToken)}">
    <label for="code">Authenticator or recovery code</label>
    <input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" required maxlength="40" autofocus>
    <button type="submit">Continue</button>
  </form>
  <p class="muted">The code expires five minutes after your password was accepted; then sign in again.</p>`,
  );
}

/** One checkbox per area, ticked as `defaults` says, and the read-only / read-and-write choice. */
function grantFields(defaults: { areas: readonly ScopeArea[]; access: ScopeAccess }): string {
  const areas = SCOPE_AREAS.map(
    (area) =>
      `      <label><input type="checkbox" name="${CONSENT_AREAS_FIELD}" value="${area}"${defaults.areas.includes(area) ? ' checked' : ''}> ${escapeHtml(AREA_LABELS[area])}</label>`,
  ).join('\n');
  const access = (value: ScopeAccess, label: string) =>
    `      <label><input type="radio" name="${CONSENT_ACCESS_FIELD}" value="${value}"${defaults.access === value ? ' checked' : ''}> ${label}</label>`;
  return `    <fieldset>
      <legend>Areas it may use</legend>
${areas}
    </fieldset>
    <fieldset>
      <legend>What it may do there</legend>
${access('read', 'Read only')}
${access('write', 'Read and write (through the same rules as the app)')}
    </fieldset>`;
}

export function consentPage(input: {
  clientName: string;
  clientUri?: string;
  redirectUri: string;
  email: string;
  request: AuthorizeRequest;
  csrf: string;
  defaults: { areas: readonly ScopeArea[]; access: ScopeAccess };
  error?: string;
}): string {
  const host = new URL(input.redirectUri).host || input.redirectUri;
  const site = input.clientUri ? `  <p class="muted">Client site: ${escapeHtml(input.clientUri)}</p>\n` : '';
  const error = input.error ? `  <p class="error" role="alert">${escapeHtml(input.error)}</p>\n` : '';
  return layout(
    `Allow ${input.clientName}?`,
    `  <h1>Allow <span id="client-name">${escapeHtml(input.clientName)}</span> to use your account?</h1>
  <p class="muted">Signed in as ${escapeHtml(input.email)}.</p>
${error}  <p>Choose what this assistant may use. It can always read the date and time in your time zone. You can narrow this later or revoke it at any time (<code>/api/v1/connections</code>).</p>
${site}  <p class="muted">You will be sent back to ${escapeHtml(host)}.</p>
  <form method="post" action="/authorize">
${hidden(input.request, input.csrf)}
${grantFields(input.defaults)}
    <button type="submit" name="decision" value="approve">Allow</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </form>`,
  );
}

/**
 * An authorization request that cannot go on, shown here instead of being sent to the client's
 * redirect URI: a client the person never approved is not trusted with a redirect (RFC 9700 §4.11).
 */
export function authorizeErrorPage(input: { clientName: string; message: string }): string {
  return layout(
    'Cannot connect',
    `  <h1>Cannot connect ${escapeHtml(input.clientName)}</h1>
  <p class="error">${escapeHtml(input.message)}</p>
  <p class="muted">The application asked for access in a way this service does not accept. Nothing was shared; you can close this page.</p>`,
  );
}
