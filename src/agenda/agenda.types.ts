import { ArgsType, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';

/** operations.md "Agenda": the kinds of entries the agenda merges, named as the REST answer spells them. */
export enum AgendaEntryType {
  task = 'task',
  training = 'training',
  mobility = 'mobility',
  cardio = 'cardio',
  social_happening = 'social_happening',
  deadline = 'deadline',
  project_task = 'project_task',
  transaction = 'transaction',
  reading = 'reading',
  meditation = 'meditation',
  /** A person's birthday, every year (all-day). */
  birthday = 'birthday',
  /** A habit's due days (the calendar feed, when asked for: `?include=habits`). */
  habit = 'habit',
}

registerEnumType(AgendaEntryType, { name: 'AgendaEntryType', description: 'Which domain an agenda entry comes from.' });

/** One entry of the unified agenda (operations.md fixes the fields). Read-only: made from the domains' rows. */
@ObjectType({ simpleResolvers: true })
export class AgendaEntry {
  @Field(() => AgendaEntryType)
  type!: AgendaEntryType;

  @Field(() => ID, {
    description:
      '`<type>:<sourceId>`, or `<type>:<sourceId>:<YYYY-MM-DD>` for a date of a series (a recurring task or transaction not made or booked yet, a birthday): the same entry keeps it across reads.',
  })
  id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => DateTimeISO, { description: "For an all-day entry: that day's midnight in your time zone, in UTC." })
  start!: Date;

  @Field(() => DateTimeISO, {
    nullable: true,
    description: 'null without a duration (deadline, project task due date, transaction, training without an end); an all-day entry ends at the next midnight.',
  })
  end!: Date | null;

  @Field(() => Boolean, { description: 'Known only by its day (a task on a day, reading, mobility, a transaction).' })
  allDay!: boolean;

  @Field(() => ID, { description: "The id of the domain record (the task's, the session's, the transaction's …; a series' first task or transaction; the person of a birthday)." })
  sourceId!: string;

  /** Not in the API: the key of the series this entry is a date of (the feed writes the series once, with its rule). */
  series?: string;
}

@ArgsType()
export class AgendaRangeArgs {
  @Field(() => String, { description: 'ISO 8601 datetime or date (a date, or a datetime without offset, is read in your time zone).' })
  start!: string;

  @Field(() => String, { description: 'ISO 8601, after start, at most 366 days after it. Excluded.' })
  end!: string;

  @Field(() => Boolean, { defaultValue: false, description: 'false: only recurring transactions and large expenses (largeExpenseThreshold).' })
  showAllTransactions!: boolean;
}

@ObjectType({ simpleResolvers: true })
export class AgendaFeedUrl {
  @Field(() => String, { description: 'The secret iCalendar URL; creating a new one makes the previous answer 404.' })
  url!: string;
}

@ArgsType()
export class CreateAgendaFeedArgs {
  @Field(() => Boolean, { nullable: true, description: 'The feed also shows your active habits as all-day series (default false).' })
  includeHabits?: boolean;
}
