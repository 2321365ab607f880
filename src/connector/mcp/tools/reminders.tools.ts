import { z } from 'zod';
import { DateTime } from 'luxon';
import { todayIn } from '../../../core/dates.js';
import { ValidationError } from '../../../core/errors.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { boundedInt, pageArgs } from '../../../core/validation/tool-arguments.js';
import { HabitService } from '../../../habits/habit.service.js';
import { DayService } from '../../../planning/day.service.js';
import { DeadlineService } from '../../../projects/deadline.service.js';
import { ProjectTaskService } from '../../../projects/project-task.service.js';
import { REMINDER_CHANNELS, REMINDER_KINDS, type ReminderChannelName, type ReminderKindName } from '../../../reminders/reminder-kind.js';
import type { Reminder } from '../../../reminders/reminder.entity.js';
import { REMINDER_KIND_IMPLEMENTATIONS } from '../../../reminders/kinds/index.js';
import { kindOf, ReminderService } from '../../../reminders/reminder.service.js';
import { HH_MM, OFFSET_MINUTES_MAX } from '../../../reminders/reminder.types.js';
import { SettingsService } from '../../../settings/settings.service.js';
import { PersonService } from '../../../social/person.service.js';
import { SocialHappeningService } from '../../../social/social-happening.service.js';
import { TaskStatus } from '../../../tasks/task-status.js';
import { TaskService } from '../../../tasks/task.service.js';
import { TITLE_MAX } from '../../../tasks/task.types.js';
import { idOrName, type Named } from './by-name.js';
import { dateArg } from './common-arguments.js';
import { deletedOut, isoDateTime, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, REMOVES, SETS_STATE, type ConnectorTool, type ToolContext } from './tool.js';

/** Records a name is looked for among, per kind of target (each read bounded). */
const NAME_CANDIDATES = MAX_PAGE_SIZE;
/** The channel when none is named: the account's address always reaches the person. */
const DEFAULT_CHANNEL: ReminderChannelName = 'email';

const oneOf = (field: string, values: readonly string[]) => `${field} must be one of ${values.join(', ')}`;
const kindArg = z.enum(REMINDER_KINDS, { error: oneOf('kind', REMINDER_KINDS) });
const channelArg = z
  .enum(REMINDER_CHANNELS, { error: oneOf('channel', REMINDER_CHANNELS) })
  .describe('web_push (the browsers and phones the person registered), email (the account address), push_url (a POST to the push URL of the notification settings).');
const offsetArg = boundedInt('offsetMinutes', 0, OFFSET_MINUTES_MAX).describe(`Minutes before the moment, 0-${OFFSET_MINUTES_MAX} (1440 = a day before).`);
const localTimeArg = z.string().regex(HH_MM, 'localTime must be a time HH:MM (00:00-23:59)');
const reminderIdArg = z.string().uuid().describe("The reminder's id (from reminders_list).");
/** The kinds timed by offsetMinutes before their moment, which refuse a localTime (the kind registry says). */
const UNTIMED_KINDS = Object.values(REMINDER_KIND_IMPLEMENTATIONS)
  .filter((kind) => kind.localTime === 'unused')
  .map((kind) => kind.name)
  .join(', ');

const KIND_HELP =
  'task_start (offsetMinutes before a task starts: its startTime on its day), task_at_time (at localTime on the task\'s day; every date of a recurring series when the target is the series\' first task), ' +
  'deadline (offsetMinutes before a project deadline or a card with a due date), happening (offsetMinutes before a social happening), birthday (localTime, 09:00 by default, on a person\'s birthday every year), ' +
  'bedtime_in_bed and bedtime_lights_out (offsetMinutes before the bedtime target each day, the stress-week value in a stress week), morning_brief (each day at localTime, or at the wake target without one: perimeter, tasks, training, dinner, deadlines), ' +
  'evening_review (each day at localTime, 21:00 by default: the unfinished checklist and unanswered journal questions; not sent when nothing is left), ' +
  'habit (at localTime on each day a habit is due and not yet done, skipped or resting).';

const reminderOut = z.object({
  id: z.string(),
  kind: z.enum(REMINDER_KINDS),
  targetId: z.string().nullable().describe('The task, deadline or card, happening, person or habit; null for the daily kinds.'),
  channel: z.enum(REMINDER_CHANNELS),
  offsetMinutes: z.number(),
  localTime: z.string().nullable(),
  active: z.boolean(),
  nextDueAt: isoDateTime.nullable().describe('When the next occurrence is sent; null: none left.'),
  nextDueLocal: z.string().nullable().describe("The same in the user's time zone, YYYY-MM-DD HH:MM."),
  createdAt: isoDateTime,
});

function reminderJson(reminder: Reminder, timezone: string) {
  return {
    id: reminder.id,
    kind: reminder.kind,
    targetId: reminder.targetId ?? null,
    channel: reminder.channel,
    offsetMinutes: reminder.offsetMinutes,
    localTime: reminder.localTime ?? null,
    active: reminder.active,
    nextDueAt: reminder.nextDueAt?.toISOString() ?? null,
    nextDueLocal: reminder.nextDueAt ? DateTime.fromJSDate(reminder.nextDueAt, { zone: timezone }).toFormat('yyyy-MM-dd HH:mm') : null,
    createdAt: reminder.createdAt.toISOString(),
  };
}

const timezoneOf = (ctx: ToolContext) => ctx.service(SettingsService).timezoneOf(ctx.userId);

/**
 * The records a target's name is looked for among (each a bounded read): a task's title among the tasks
 * of `date` when given, else among the open (to do, doing) tasks; a person's name among the people
 * whose name contains it; a deadline's or card's title among the upcoming deadlines and the cards with
 * a due date; a happening's title among those from today on.
 */
async function candidates(ctx: ToolContext, target: 'task' | 'deadline' | 'happening' | 'person' | 'habit', name: string, date: string | undefined): Promise<Named[]> {
  const wanted = name.trim();
  switch (target) {
    case 'task': {
      const tasks = ctx.service(TaskService);
      if (date) {
        const day = await ctx.service(DayService).onDate(ctx.userId, date);
        return (await tasks.list(ctx.userId, { dayId: day.id, limit: NAME_CANDIDATES })).items.map((t) => ({ id: t.id, name: t.title }));
      }
      const open = await Promise.all([TaskStatus.todo, TaskStatus.doing].map((status) => tasks.list(ctx.userId, { status, limit: NAME_CANDIDATES })));
      return open.flatMap((page) => page.items).map((t) => ({ id: t.id, name: t.title }));
    }
    case 'habit':
      return (await ctx.service(HabitService).list(ctx.userId, { limit: NAME_CANDIDATES })).items.map((h) => ({ id: h.id, name: h.name }));
    case 'person': {
      const people = ctx.service(PersonService);
      const found = (await people.list(ctx.userId, { search: wanted, limit: NAME_CANDIDATES })).items;
      const named = found.length ? found : (await people.list(ctx.userId, { limit: 20 })).items;
      return named.map((p) => ({ id: p.id, name: p.name }));
    }
    case 'deadline': {
      const [deadlines, cards] = await Promise.all([
        ctx.service(DeadlineService).list(ctx.userId, { upcoming: true, limit: NAME_CANDIDATES }),
        ctx.service(ProjectTaskService).findOwn(ctx.userId, { titleContains: wanted }, NAME_CANDIDATES),
      ]);
      return [...deadlines.items.map((d) => ({ id: d.id, name: d.title })), ...cards.filter((c) => c.dueDate).map((c) => ({ id: c.id, name: c.title }))];
    }
    case 'happening': {
      const today = todayIn(await timezoneOf(ctx));
      return (await ctx.service(SocialHappeningService).list(ctx.userId, { startDate: today, limit: NAME_CANDIDATES })).items.map((h) => ({ id: h.id, name: h.title }));
    }
  }
}

const TARGET_WORDS = { task: 'Task', deadline: 'Deadline', happening: 'SocialHappening', person: 'Person', habit: 'Habit' } as const;

/** The target's id: the one given, else the record named by `target`; null for the daily kinds. */
async function targetIdOf(ctx: ToolContext, kind: ReminderKindName, given: { targetId?: string; target?: string; date?: string }): Promise<string | null> {
  const { target } = kindOf(kind);
  if (!target) {
    if (given.target !== undefined) throw new ValidationError(`${kind} reminders are about no record`, [{ path: ['target'], message: `${kind} reminders take no target` }]);
    // A targetId given anyway: the service refuses it, naming targetId.
    return given.targetId ?? null;
  }
  return idOrName(TARGET_WORDS[target], { id: given.targetId, name: given.target }, () => candidates(ctx, target, given.target!, given.date), (r) => r.name, (r) => r.id);
}

export const remindersTools: ConnectorTool[] = [
  defineTool({
    name: 'reminders_list',
    mirrors: 'Query.reminders',
    title: 'List reminders',
    description:
      "The user's reminders, oldest first, optionally of one kind or only the active (or paused) ones: what each is about, its channel, offset or time of day, and when it is next sent (UTC and in the user's time zone); paginated.",
    inputSchema: {
      kind: kindArg.optional(),
      active: z.boolean().optional().describe('true: only the active ones; false: only the paused ones.'),
      ...pageArgs,
    },
    outputSchema: { timezone: z.string(), reminders: z.array(reminderOut), meta: pageMetaOut },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const [page, timezone] = await Promise.all([ctx.service(ReminderService).list(ctx.userId, args), timezoneOf(ctx)]);
      return { timezone, reminders: page.items.map((r) => reminderJson(r, timezone)), meta: page.meta };
    },
  }),
  defineTool({
    name: 'reminders_add',
    mirrors: 'Mutation.createReminder',
    title: 'Add a reminder',
    description:
      `Asks to be reminded (a new reminder each call). Kinds: ${KIND_HELP} ` +
      'The record it is about is given by id (`targetId`) or by what a person calls it (`target`): a task\'s title (narrowed to the tasks of `date` when given), a deadline\'s or card\'s title, a happening\'s title, a person\'s name, a habit\'s name. ' +
      `Times are in the user's time zone. The channel is ${DEFAULT_CHANNEL} unless named. A reminder that would never be sent (the moment passed, the task is done or has no start time, the person has no birthday) is refused.`,
    inputSchema: {
      kind: kindArg,
      targetId: z.string().uuid().optional().describe('The task, deadline or card, happening, person or habit (kinds about a record).'),
      target: z.string().min(1).max(TITLE_MAX).optional().describe("Instead of targetId: the task's or deadline's or happening's title, or the person's or habit's name (exact, or a unique part of it)."),
      date: dateArg('date').describe('With `target` for a task: the day (YYYY-MM-DD) whose tasks the title is looked for among.'),
      channel: channelArg.optional(),
      offsetMinutes: offsetArg.optional(),
      localTime: localTimeArg
        .optional()
        .describe(
          `HH:MM in the user's time zone: required for task_at_time; birthday (default 09:00), evening_review (default 21:00) and morning_brief (default: the wake target); refused for ${UNTIMED_KINDS}.`,
        ),
    },
    outputSchema: reminderOut.shape,
    area: 'planning',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const targetId = await targetIdOf(ctx, args.kind, args);
      const reminder = await ctx.service(ReminderService).create(ctx.userId, {
        kind: args.kind,
        targetId,
        channel: args.channel ?? DEFAULT_CHANNEL,
        offsetMinutes: args.offsetMinutes ?? 0,
        localTime: args.localTime ?? null,
      });
      return reminderJson(reminder, await timezoneOf(ctx));
    },
  }),
  defineTool({
    name: 'reminders_update',
    mirrors: 'Mutation.updateReminder',
    title: 'Change a reminder',
    description:
      'Changes one reminder (its id from reminders_list): the channel, the offset, the time of day (null clears it where the kind does not need one), or pauses it (`active: false`) and resumes it (`active: true`, from its next occurrence). A new time sets when it is next sent. Its kind and what it is about stay: to change those, delete it and add another.',
    inputSchema: {
      reminderId: reminderIdArg,
      channel: channelArg.optional(),
      offsetMinutes: offsetArg.optional(),
      localTime: localTimeArg.nullable().optional().describe(`HH:MM in the user's time zone; null clears it; refused for ${UNTIMED_KINDS}.`),
      active: z.boolean().optional().describe('false pauses the reminder; true resumes it.'),
    },
    outputSchema: reminderOut.shape,
    area: 'planning',
    annotations: SETS_STATE,
    async run(args, ctx) {
      const { reminderId, ...changes } = args;
      const reminder = await ctx.service(ReminderService).update(ctx.userId, reminderId, changes);
      return reminderJson(reminder, await timezoneOf(ctx));
    },
  }),
  defineTool({
    name: 'reminders_delete',
    mirrors: 'Mutation.deleteReminder',
    title: 'Delete a reminder',
    description: 'Deletes one reminder (its id from reminders_list) for good, with its history of what was sent; an occurrence not yet sent is not sent.',
    inputSchema: { reminderId: reminderIdArg },
    outputSchema: deletedOut,
    area: 'planning',
    annotations: REMOVES,
    async run(args, ctx) {
      return ctx.service(ReminderService).delete(ctx.userId, args.reminderId);
    },
  }),
];
