import { createHash } from 'node:crypto';
import escapeHtml from 'escape-html';
import { OIDC_PATH } from './oidc-flow.js';

/*
 * The two pages a browser may land on at the end of a single sign-on: why it failed, or the form
 * that proves an existing account's password before linking. Everything shown is escaped; the only
 * script is the link form's, allowed by its hash in the Content-Security-Policy.
 */

function layout(title: string, body: string, script = ''): string {
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
    input[type=password] { width: 100%; padding: .5rem; box-sizing: border-box; }
    button { padding: .5rem 1.25rem; margin: 1rem .5rem 0 0; }
    .error { color: #b00020; }
    .muted { color: #555; font-size: .9rem; }
  </style>
</head>
<body>
${body}
${script ? `<script>${script}</script>\n` : ''}</body>
</html>
`;
}

export function errorPage(message: string, status: number): string {
  return layout(
    'Single sign-on failed',
    `  <h1>Single sign-on failed</h1>
  <p class="error" role="alert" id="message">${escapeHtml(message)}</p>
  <p class="muted">Nobody was signed in (${status}).</p>
  <p><a href="${OIDC_PATH}/start">Try again</a> · <a href="/">Home</a></p>`,
  );
}

/** Sends the form as JSON (the Session API takes JSON bodies only) and follows the answer. */
const LINK_SCRIPT = `
const form = document.getElementById('link-form');
const status = document.getElementById('status');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  status.textContent = '';
  const body = JSON.stringify({ linkToken: form.elements.linkToken.value, password: form.elements.password.value });
  let answer = null;
  try {
    const res = await fetch(form.action, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body });
    answer = await res.json();
  } catch {
    answer = null;
  }
  if (answer && answer.ok) {
    location.assign(answer.data.redirectTo);
    return;
  }
  const error = answer && answer.error;
  if (error && error.code === 'SECOND_FACTOR_REQUIRED') {
    status.textContent = 'Your account asks for a second factor. Sign in with your password and code first, then use single sign-on again to link it.';
    return;
  }
  status.textContent = (error && error.message) || 'Linking failed; try again.';
});
`;

export const LINK_SCRIPT_HASH = `'sha256-${createHash('sha256').update(LINK_SCRIPT).digest('base64')}'`;

export function linkPage(input: { email: string; linkToken: string }): string {
  return layout(
    'Link your account',
    `  <h1>Link your account</h1>
  <p>An account for <strong id="email">${escapeHtml(input.email)}</strong> already exists here. Enter its password once to link it to your single sign-on account; later sign-ins go through single sign-on alone.</p>
  <form id="link-form" method="post" action="${OIDC_PATH}/link">
    <input type="hidden" name="linkToken" value="${escapeHtml(input.linkToken)}">
    <label for="password">Password of this account</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Link and sign in</button>
  </form>
  <p class="error" role="alert" id="status"></p>
  <noscript><p class="error">Linking needs JavaScript.</p></noscript>
  <p class="muted">Not you? <a href="/">Leave</a>: nothing is linked without the password.</p>`,
    LINK_SCRIPT,
  );
}

/** Pages only: no framing, nothing from elsewhere, the link form's script by its hash. */
export const PAGE_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${LINK_SCRIPT_HASH}; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
