import { DAILY_REMINDER_KINDS } from './daily-kinds.js';
import type { ReminderKindName, ReminderMessage } from './reminder-kind.js';

/** The kinds about a day rather than a record: their link opens the occurrence's day. */
const DAY_KINDS: ReadonlySet<ReminderKindName> = new Set(DAILY_REMINDER_KINDS);
const API_PREFIX = '/api/v1/';

/**
 * Where tapping a reminder goes (ntfy's `Click`, the Web Push payload's `url`, the mail's link): a page,
 * never the JSON resource, which a browser without the API's cookie answers with a 401 envelope.
 * With APP_URL, a deep link into the rich client: `/days/<date>` for the daily kinds (the occurrence's
 * local date), otherwise the record's path as the API names it (`/tasks/<id>`, `/deadlines/<id>`,
 * `/projects/<id>/tasks/<id>`, `/social-happenings/<id>`, `/people/<id>`). Without it, the service's `/`
 * page.
 */
export function reminderLink(options: { appUrl: string | undefined; baseUrl: string }, kind: ReminderKindName, occurrenceKey: string, message: ReminderMessage): string {
  if (!options.appUrl) return `${options.baseUrl}/`;
  return options.appUrl + appPath(kind, occurrenceKey, message);
}

function appPath(kind: ReminderKindName, occurrenceKey: string, message: ReminderMessage): string {
  const date = /^\d{4}-\d{2}-\d{2}/.exec(occurrenceKey)?.[0];
  if (DAY_KINDS.has(kind)) return date ? `/days/${date}` : '/';
  if (message.url?.startsWith(API_PREFIX)) return `/${message.url.slice(API_PREFIX.length)}`;
  return '/';
}
