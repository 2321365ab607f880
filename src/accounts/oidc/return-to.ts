/**
 * Where the browser goes after signing in: a path of this service only. Anything that could leave the
 * origin (`//evil.example`, `/\evil.example`, `https://…`, control characters) falls back to `/`, so
 * the sign-in cannot be used as an open redirect.
 */
export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.length > 2048) return '/';
  if (raw.startsWith('//') || raw.startsWith('/\\') || /[\u0000-\u001f\u007f\\]/.test(raw)) return '/';
  const base = new URL('http://service.invalid');
  const url = new URL(raw, base);
  if (url.origin !== base.origin) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The absolute address to redirect to, under BASE_URL (read at request time: it follows the port taken). */
export function redirectTarget(baseUrl: string, returnTo: string): string {
  return `${baseUrl}${returnTo}`;
}
