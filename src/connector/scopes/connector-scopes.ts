/**
 * What a person can grant an assistant: per area, reading or reading and writing. A scope is
 * `<area>:read` or `<area>:write`; write includes read (a grant of `food:write` answers food reads).
 * Stored on the connection (`oauth_connections.scopes`), carried by codes and tokens, and checked on
 * every tool call, so narrowing a connection takes effect on the next call.
 */
export const SCOPE_AREAS = ['planning', 'health', 'food', 'journal', 'people', 'projects', 'money'] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];
export type ScopeAccess = 'read' | 'write';
export type Scope = `${ScopeArea}:${ScopeAccess}`;

/** How the consent page and docs/connector.md name each area. */
export const AREA_LABELS: Record<ScopeArea, string> = {
  planning: 'Planning and tasks (days, checklist, tasks, agenda)',
  health: 'Health and training (training, sleep, mood, body, meditation)',
  food: 'Food (dinner plans, meal templates, grocery lists)',
  journal: 'Journal and notes (journal, reading, Brain notes, databases and forms, files)',
  people: 'People (people and happenings)',
  projects: 'Projects (boards, cards, deadlines)',
  money: 'Money (accounts and transactions)',
};

export const ALL_SCOPES: readonly Scope[] = SCOPE_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as Scope[]);

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** The scopes a consent grants: each ticked area, read only or read and write. */
export function grantFor(areas: readonly ScopeArea[], access: ScopeAccess): Scope[] {
  return SCOPE_AREAS.filter((area) => areas.includes(area)).flatMap((area) => (access === 'write' ? [`${area}:read`, `${area}:write`] : [`${area}:read`]) as Scope[]);
}

/** Normalized: known scopes only, write implying read, in a stable order. */
export function normalizeScopes(scopes: readonly string[]): Scope[] {
  const given = new Set(scopes);
  return ALL_SCOPES.filter((scope) => given.has(scope) || (scope.endsWith(':read') && given.has(scope.replace(':read', ':write'))));
}

/** Whether `granted` allows `needed` (write includes read). */
export function allows(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed) || (needed.endsWith(':read') && granted.includes(needed.replace(':read', ':write')));
}

/** The areas a scope list touches and whether any of it is writable (to pre-tick the consent form). */
export function consentDefaults(scopes: readonly string[]): { areas: ScopeArea[]; access: ScopeAccess } {
  const normalized = normalizeScopes(scopes);
  return {
    areas: SCOPE_AREAS.filter((area) => normalized.some((s) => s.startsWith(`${area}:`))),
    access: normalized.some((s) => s.endsWith(':write')) ? 'write' : 'read',
  };
}
