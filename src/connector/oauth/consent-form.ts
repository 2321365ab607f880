import { grantFor, SCOPE_AREAS, type Scope, type ScopeArea } from '../scopes/connector-scopes.js';

/** The consent form's fields: `areas` (one checkbox per area) and `access` (`read` or `write`). */
export const CONSENT_AREAS_FIELD = 'areas';
export const CONSENT_ACCESS_FIELD = 'access';

/** The scopes the person ticked on the consent form (empty when no area was ticked). */
export function consentedGrant(body: Record<string, unknown>): Scope[] {
  const raw = body[CONSENT_AREAS_FIELD];
  const ticked = (Array.isArray(raw) ? raw : [raw]).filter((value): value is ScopeArea => typeof value === 'string' && (SCOPE_AREAS as readonly string[]).includes(value));
  return grantFor(ticked, body[CONSENT_ACCESS_FIELD] === 'write' ? 'write' : 'read');
}
