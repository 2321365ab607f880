import { AgendaEntryType } from '../../agenda/agenda.types.js';
import { allows, SCOPE_AREAS, type ScopeArea } from './connector-scopes.js';

/**
 * Issue 34: a tool needs one area's grant, but an aggregate answer (the agenda, and the resources and
 * prompts that read through it) gathers records of every area. Each item of such a list carries its
 * own `area`, and `withinGrant` keeps only the items whose area the grant can read. A tool, resource or
 * prompt answer passes through it on its one way out (`runTool`), so a new aggregate only has to tag its
 * items.
 */

/** The area each kind of agenda entry belongs to (exhaustive: a new kind must say which). */
export const AGENDA_ENTRY_AREAS: Readonly<Record<AgendaEntryType, ScopeArea>> = {
  [AgendaEntryType.task]: 'planning',
  [AgendaEntryType.training]: 'health',
  [AgendaEntryType.mobility]: 'health',
  [AgendaEntryType.cardio]: 'health',
  [AgendaEntryType.meditation]: 'health',
  [AgendaEntryType.reading]: 'journal',
  [AgendaEntryType.social_happening]: 'people',
  [AgendaEntryType.birthday]: 'people',
  [AgendaEntryType.deadline]: 'projects',
  [AgendaEntryType.project_task]: 'projects',
  [AgendaEntryType.transaction]: 'money',
};

const AREAS: ReadonlySet<string> = new Set(SCOPE_AREAS);

/** Whether `value` is a list item tagged with an area the grant cannot read. */
function outsideGrant(value: unknown, granted: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const area = (value as { area?: unknown }).area;
  return typeof area === 'string' && AREAS.has(area) && !allows(granted, `${area as ScopeArea}:read`);
}

/**
 * `answer` without the list items (at any depth) whose `area` the grant does not allow reading; the
 * rest is copied as is. Work is linear in the answer, which every tool bounds.
 */
export function withinGrant<T>(answer: T, granted: readonly string[]): T {
  if (Array.isArray(answer)) return answer.filter((item) => !outsideGrant(item, granted)).map((item) => withinGrant(item, granted)) as T;
  if (typeof answer !== 'object' || answer === null || answer instanceof Date) return answer;
  return Object.fromEntries(Object.entries(answer).map(([key, value]) => [key, withinGrant(value, granted)])) as T;
}
