/**
 * `application/json` (any parameters), or a `+json` type. A browser page of another origin can send a
 * body only as text/plain, a form or multipart without asking first (a CORS preflight this service never
 * grants), so refusing those closes the "JSON in a text/plain body" CSRF.
 */
export function isJsonContentType(value: string | null | undefined): boolean {
  if (!value) return false;
  const essence = value.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[\w.-]+\+json$/.test(essence);
}
