/**
 * The "Caps on lists" tables of docs/security.md, from the constants the code holds: what one parent may
 * hold (the numbers the `enforce_row_cap` triggers apply; test/graphql/list-bounds.test.ts keeps the
 * database's equal to these constants) and what a read cuts a list to. The rule names are the triggers'
 * own, fixed by migration 20261124163000. `npm run generate` rewrites both tables;
 * test/drift/caps-table.test.ts fails while the checked-in ones differ.
 */
import { MAX_AGENDA_ENTRIES } from '../src/agenda/agenda.service.js';
import { MAX_DATABASES } from '../src/brain/databases/properties.js';
import { MAX_FORMS } from '../src/brain/forms/form-config.js';
import { CONNECTIONS_SHOWN } from '../src/connector/connections/connection.service.js';
import { LIST_ITEMS_MAX } from '../src/nutrition/nutrition.types.js';
import { DAY_ENTRIES_MAX, DAY_TRAINING_SESSIONS_MAX } from '../src/planning/day-record.entity.js';
import { COLUMN_TASKS_MAX } from '../src/projects/projects.types.js';
import { PUBLIC_SEARCH_MAX } from '../src/public-api/public.types.js';
import { PERSON_HAPPENINGS_SHOWN } from '../src/social/social.types.js';
import { DAY_TASKS_MAX } from '../src/tasks/task.types.js';
import { markdownTable, withBlock, type GeneratedBlock } from './generated-block.js';

export const CAPS_TABLE: GeneratedBlock = {
  page: 'docs/security.md',
  start: '<!-- caps-table:start (npm run generate) -->',
  end: '<!-- caps-table:end -->',
};
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

/** The security page with both tables replaced by the current ones. */
export function withCapsTables(page: string): string {
  return withBlock(withBlock(page, CAPS_TABLE, capsTable()), READ_CUTS_TABLE, readCutsTable());
}
