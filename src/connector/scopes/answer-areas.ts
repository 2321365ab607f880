import { z } from 'zod';
import { AgendaEntryType } from '../../agenda/agenda.types.js';
import { allows, SCOPE_AREAS, type ScopeArea } from './connector-scopes.js';

/**
 * Issue 34: a tool needs one area's grant, but an aggregate answer (the agenda, and the resources and
 * prompts that read through it) gathers records of every area. Each item of such a list carries its
 * own `area`, a field holding another area's data is declared so in the tool's answer schema
 * (`areaField`), and `withinGrant` keeps only what the grant can read. A tool, resource or prompt
 * answer passes through it on its one way out (`runTool`), so a new aggregate only has to tag its items
 * or fields.
 */

/** The area each kind of agenda entry belongs to (exhaustive: a new kind must say which). */
export const AGENDA_ENTRY_AREAS: Readonly<Record<AgendaEntryType, ScopeArea>> = {
  [AgendaEntryType.task]: 'planning',
  [AgendaEntryType.habit]: 'planning',
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

/**
 * The area each kind of trash entry belongs to (the domains' `.trash.ts` files; docs/trash.md): the trash tools list
 * the kinds the grant reads and act on those it writes. A kind missing here is not the assistant's.
 */
export const TRASH_KIND_AREAS: Readonly<Record<string, ScopeArea>> = {
  task: 'planning',
  habit: 'planning',
  projectTask: 'projects',
  note: 'journal',
  record: 'journal',
  file: 'journal',
  person: 'people',
  transaction: 'money',
};

const AREAS: ReadonlySet<string> = new Set(SCOPE_AREAS);

/** The answer-schema fields that are another area's data (kept beside the schemas, not in their JSON). */
const FIELD_AREAS = new WeakMap<z.ZodType, ScopeArea>();

/**
 * A field of a tool's answer that is `area`'s data (the day's mood and sleep are health's): optional,
 * and left out of the answer when the grant cannot read `area`. Describe `schema` before passing it.
 */
export function areaField<T extends z.ZodType>(area: ScopeArea, schema: T): z.ZodOptional<T> {
  const field = schema.optional();
  FIELD_AREAS.set(field, area);
  return field;
}

const unreadable = (area: string, granted: readonly string[]) => AREAS.has(area) && !allows(granted, `${area as ScopeArea}:read`);

/** The schema under optional and nullable wrappers (where the shape of objects and arrays is). */
function bare(schema: z.ZodType | undefined): z.ZodType | undefined {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

/** Whether `value` is a list item tagged with an area the grant cannot read. */
function outsideGrant(value: unknown, granted: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const area = (value as { area?: unknown }).area;
  return typeof area === 'string' && unreadable(area, granted);
}

/**
 * `answer` without the list items (at any depth) whose `area` the grant does not allow reading, and
 * without the fields its `schema` declares another area's (`areaField`) that the grant cannot read;
 * the rest is copied as is. Work is linear in the answer, which every tool bounds.
 */
export function withinGrant<T>(answer: T, granted: readonly string[], schema?: z.ZodType): T {
  const shape = bare(schema);
  if (Array.isArray(answer)) {
    const element = shape instanceof z.ZodArray ? (shape.element as z.ZodType) : undefined;
    return answer.filter((item) => !outsideGrant(item, granted)).map((item) => withinGrant(item, granted, element)) as T;
  }
  if (typeof answer !== 'object' || answer === null || answer instanceof Date) return answer;
  const fields: Record<string, z.ZodType> = shape instanceof z.ZodObject ? shape.shape : {};
  const kept: [string, unknown][] = [];
  for (const [key, value] of Object.entries(answer)) {
    const area = fields[key] && FIELD_AREAS.get(fields[key]);
    if (!area || !unreadable(area, granted)) kept.push([key, withinGrant(value, granted, fields[key])]);
  }
  return Object.fromEntries(kept) as T;
}
