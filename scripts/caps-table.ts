/**
 * The "Caps on lists" tables of docs/security.md, from the constants the code holds: what one parent may
 * hold (the numbers the `enforce_row_cap` triggers apply; test/graphql/list-bounds.test.ts keeps the
 * database's equal to these constants), what the services check on each write, and what a read cuts a
 * list to. The triggers' rule names are fixed by migration 20261124163000. `npm run generate` rewrites them;
 * test/drift/caps-table.test.ts fails while the checked-in ones differ.
 */
import { MAX_PASSKEYS } from '../src/accounts/passkeys/passkey-registration.js';
import { MAX_AGENDA_ENTRIES } from '../src/agenda/agenda.service.js';
import { MAX_DATABASES, MAX_PROPERTIES } from '../src/brain/databases/properties.js';
import { MAX_FIELDS, MAX_FORMS } from '../src/brain/forms/form-config.js';
import { CANVAS_CARDS_MAX, NOTE_TAGS_MAX } from '../src/brain/notes/brain-notes.types.js';
import { CONNECTIONS_SHOWN } from '../src/connector/connections/connection.service.js';
import { RECURRENCE_EXCEPTIONS_MAX } from '../src/core/recurrence/recurrence-bounds.js';
import { LIST_ITEMS_MAX, MAX_INGREDIENTS } from '../src/nutrition/nutrition.types.js';
import { DAY_ENTRIES_MAX, DAY_TRAINING_SESSIONS_MAX } from '../src/planning/day-record.entity.js';
import { COLUMN_TASKS_MAX, MAX_COLUMNS, MAX_LINKS } from '../src/projects/projects.types.js';
import { PUBLIC_SEARCH_MAX } from '../src/public-api/public.types.js';
import { IDS_MAX, PERSON_HAPPENINGS_SHOWN } from '../src/social/social.types.js';
import { DAY_TASKS_MAX } from '../src/tasks/task.types.js';
import { MAX_EXERCISES, MAX_SETS } from '../src/training/training.types.js';
import { WEBHOOKS_MAX } from '../src/webhooks/webhook.service.js';
import { EVENTS_MAX } from '../src/webhooks/webhook.types.js';
import { markdownTable, withBlock, type GeneratedBlock } from './generated-block.js';

export const CAPS_TABLE: GeneratedBlock = {
  page: 'docs/security.md',
  start: '<!-- caps-table:start (npm run generate) -->',
  end: '<!-- caps-table:end -->',
};
export const WRITE_CHECKS_TABLE: GeneratedBlock = { ...CAPS_TABLE, start: '<!-- write-checks-table:start (npm run generate) -->', end: '<!-- write-checks-table:end -->' };
export const READ_CUTS_TABLE: GeneratedBlock = { ...CAPS_TABLE, start: '<!-- read-cuts-table:start (npm run generate) -->', end: '<!-- read-cuts-table:end -->' };

const n = (value: number): string => value.toLocaleString('en-US');

/** The day logs other than tasks and training sessions, each capped at DAY_ENTRIES_MAX (one trigger per table). */
const DAY_LOGS = 'body measurements, mobility, cardio, water intakes, steps, meditation, mood, sleep, journal entries, reading sessions, social happenings';

export function capsTable(): string {
  return markdownTable(
    ['parent', 'holds at most', '`details.rule`'],
    [
      ['a day', `${n(DAY_TASKS_MAX)} tasks (a task without a day is not counted)`, '`day_task_limit`'],
      ['a day', `${n(DAY_TRAINING_SESSIONS_MAX)} training sessions`, '`day_entry_limit`'],
      ['a day', `${n(DAY_ENTRIES_MAX)} of each other log: ${DAY_LOGS}`, '`day_entry_limit`'],
      ['a board column', `${n(COLUMN_TASKS_MAX)} project tasks (create and move)`, '`column_task_limit`'],
      ['a grocery list', `${n(LIST_ITEMS_MAX)} items`, '`grocery_item_limit`'],
      ['a user', `${n(MAX_DATABASES)} Brain databases, ${n(MAX_FORMS)} Brain forms`, '`brain_database_limit`, `brain_form_limit`'],
    ],
  );
}

/** Bounds the services check on each write: input validation names the field, a count names its rule. */
export function writeChecksTable(): string {
  return markdownTable(
    ['list', 'holds at most', '`details.rule`'],
    [
      ['a training session\'s exercises, an exercise\'s sets', `${n(MAX_EXERCISES)}, ${n(MAX_SETS)}`, '—'],
      ['a meal template\'s ingredients', n(MAX_INGREDIENTS), '—'],
      ['a board\'s columns; a project task\'s category ids, its tag ids', `${n(MAX_COLUMNS)}; ${n(MAX_LINKS)} each`, '—'],
      ['a Brain database\'s properties, a Brain form\'s fields', `${n(MAX_PROPERTIES)}, ${n(MAX_FIELDS)}`, '—'],
      ['a Brain canvas\'s cards, a Brain note\'s tags', `${n(CANVAS_CARDS_MAX)}, ${n(NOTE_TAGS_MAX)}`, '—'],
      ['a social happening\'s guest ids, its item ids', `${n(IDS_MAX)} each`, '—'],
      ['a webhook\'s events', n(EVENTS_MAX), '—'],
      ['a user\'s webhooks', n(WEBHOOKS_MAX), '`webhook_limit`'],
      ['an account\'s passkeys', n(MAX_PASSKEYS), '`passkey_limit`'],
      ['the dates a task series leaves out', n(RECURRENCE_EXCEPTIONS_MAX), '`recurrence_exception_limit`'],
    ],
  );
}

export function readCutsTable(): string {
  return markdownTable(
    ['list', 'answers at most'],
    [
      ['`Person.happenings`', `the ${n(PERSON_HAPPENINGS_SHOWN)} most recent (all of them: \`GET /social-happenings?personId=\`, paged)`],
      [
        '`agendaRange`, `GET /agenda/range`',
        `${n(MAX_AGENDA_ENTRIES)} entries; a range holding more is a 400 on \`end\` asking for a shorter one (the calendar feed keeps the earliest ${n(MAX_AGENDA_ENTRIES)} of its window)`,
      ],
      ['`GET /exercises/search` (Public API)', `the first ${n(PUBLIC_SEARCH_MAX)} by name`],
      ['`connections`', `the ${n(CONNECTIONS_SHOWN)} newest`],
    ],
  );
}

/** The security page with its three tables replaced by the current ones. */
export function withCapsTables(page: string): string {
  const tables: [GeneratedBlock, string][] = [
    [CAPS_TABLE, capsTable()],
    [WRITE_CHECKS_TABLE, writeChecksTable()],
    [READ_CUTS_TABLE, readCutsTable()],
  ];
  return tables.reduce((text, [block, table]) => withBlock(text, block, table), page);
}
