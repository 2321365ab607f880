import { ExpectedVersion } from '../core/validation/expected-version.js';
import { ArgsType, Field, Int } from 'type-graphql';
import { IsEnum, IsOptional, Matches } from 'class-validator';
import { IfPresent } from '../core/validation/if-present.js';
import { PageArgs, Paginated } from '../core/pagination.js';
import { UUID } from '../core/scalars.js';
import { TaskCategory } from './task-category.entity.js';
import { TaskStatus } from './task-status.js';
import { Task } from './task.entity.js';
import { HexColour, OptionalText, RequiredText } from '../core/validation/text.js';
import { RECURRENCE_RULE_MAX } from '../core/recurrence/recurrence.js';
import { TaskApplyTo } from './task-apply-to.js';
import { WholeNumber } from '../core/validation/numbers.js';
import { OneOfEnum } from '../core/validation/choice.js';

export const TITLE_MAX = 500;
export const DESCRIPTION_MAX = 10_000;
export const NEXT_STEP_MAX = 2_000;
/** A timebox is a whole number of minutes, at most one day. */
export const TIMEBOX_MAX = 1_440;
/** Tasks one day may hold (the `enforce_row_cap` trigger, migration 20261124163000). */
export const DAY_TASKS_MAX = 200;
export const CATEGORY_NAME_MAX = 100;
export { RECURRENCE_RULE_MAX };
/** A start time of day, HH:MM from 00:00 to 23:59 (the settings' times have the same form). */
export const START_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export const START_TIME_MESSAGE = 'startTime must be a time HH:MM (00:00-23:59)';
const RECURRENCE_HELP =
  'RFC 5545 RRULE without DTSTART, e.g. `FREQ=WEEKLY;BYDAY=TU,TH`, `FREQ=MONTHLY;BYDAY=-1FR;COUNT=12`, `FREQ=YEARLY;UNTIL=20301231`; ' +
  "the task's day is the series' first date and must be one of the rule's dates. A rule more often than daily must end (COUNT or UNTIL).";


@ArgsType()
export class TaskIdArgs {
  @Field(() => UUID)
  taskId!: string;
}

@ArgsType()
export class CategoryIdArgs {
  @Field(() => UUID)
  categoryId!: string;
}

@ArgsType()
export class ListTasksArgs extends PageArgs {
  @Field(() => TaskStatus, { nullable: true })
  @IsOptional()
  @IsEnum(TaskStatus)
  status?: TaskStatus;

  @Field(() => UUID, { nullable: true })
  categoryId?: string;

  @Field(() => UUID, { nullable: true })
  dayId?: string;

  @Field(() => UUID, { nullable: true, description: 'The tasks of one series (its first task\'s id).' })
  seriesId?: string;
}

@ArgsType()
export class CreateTaskArgs {
  @Field(() => String)
  @RequiredText('title', TITLE_MAX)
  title!: string;

  @Field(() => String, { nullable: true })
  @OptionalText(DESCRIPTION_MAX, 'description')
  description?: string | null;

  @Field(() => Int, { description: 'Hard maximum duration in minutes, 1-1440.' })
  @WholeNumber(1, TIMEBOX_MAX, { int: 'timebox must be a whole number of minutes', min: 'timebox must be a positive number of minutes', max: `timebox must be at most ${TIMEBOX_MAX} minutes` })
  timebox!: number;

  @Field(() => UUID, { nullable: true })
  categoryId?: string | null;

  @Field(() => UUID, { nullable: true, description: 'Required with `recurrence`: its date starts the series.' })
  dayId?: string | null;

  @Field(() => String, { nullable: true, description: `Makes the task the first of a recurring series. ${RECURRENCE_HELP}` })
  @OptionalText(RECURRENCE_RULE_MAX, 'recurrence')
  recurrence?: string | null;

  @Field(() => String, { nullable: true, description: "When the timebox starts on the task's day, HH:MM in the user's time zone." })
  @IsOptional()
  @Matches(START_TIME, { message: START_TIME_MESSAGE })
  startTime?: string | null;
}

@ArgsType()
export class UpdateTaskArgs extends TaskIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @RequiredText('title', TITLE_MAX)
  title?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(DESCRIPTION_MAX, 'description')
  description?: string | null;

  @Field(() => TaskStatus, { nullable: true, description: '`deferred` needs a non-empty `nextStep` in the same request.' })
  @IfPresent('status')
  @OneOfEnum('status', TaskStatus)
  status?: TaskStatus;

  @Field(() => Int, { nullable: true, description: 'Minutes, 1-1440.' })
  @IfPresent('timebox')
  @WholeNumber(1, TIMEBOX_MAX, { int: 'timebox must be a whole number of minutes', min: 'timebox must be a positive number of minutes', max: `timebox must be at most ${TIMEBOX_MAX} minutes` })
  timebox?: number;

  @Field(() => String, { nullable: true, description: 'Required (non-empty) to defer the task.' })
  @OptionalText(NEXT_STEP_MAX, 'nextStep')
  nextStep?: string | null;

  @Field(() => UUID, { nullable: true, description: 'null detaches the category.' })
  categoryId?: string | null;

  @Field(() => UUID, { nullable: true, description: 'null detaches the task from its day (not with applyTo `following` on a recurring task: a series needs a day).' })
  dayId?: string | null;

  @Field(() => String, { nullable: true, description: 'HH:MM; null clears it.' })
  @IsOptional()
  @Matches(START_TIME, { message: START_TIME_MESSAGE })
  startTime?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      `A new rule from this task on (with applyTo \`following\` on a recurring task; a task outside a series becomes the first of one). ${RECURRENCE_HELP} ` +
      'null on a recurring task ends the series before this task and keeps this task alone.',
  })
  @OptionalText(RECURRENCE_RULE_MAX, 'recurrence')
  recurrence?: string | null;

  @Field(() => TaskApplyTo, {
    defaultValue: TaskApplyTo.this,
    description:
      'On a recurring task: `this` changes only this occurrence; `following` changes it and the following ones (the series is split here, or replaced from its first task). Ignored for other tasks.',
  })
  @OneOfEnum('applyTo', TaskApplyTo)
  applyTo!: TaskApplyTo;

  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class DeleteTaskArgs extends TaskIdArgs {
  @Field(() => TaskApplyTo, {
    defaultValue: TaskApplyTo.this,
    description:
      'On a recurring task: `this` deletes only this occurrence (its date is never made again); `following` ends the series before it and deletes the undone occurrences from it on. Ignored for other tasks.',
  })
  @OneOfEnum('applyTo', TaskApplyTo)
  applyTo!: TaskApplyTo;

  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class CreateTaskCategoryArgs {
  @Field(() => String)
  @RequiredText('name', CATEGORY_NAME_MAX)
  name!: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB.' })
  @IsOptional()
  @HexColour('color')
  color?: string | null;
}

@ArgsType()
export class UpdateTaskCategoryArgs extends CategoryIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', CATEGORY_NAME_MAX)
  name?: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB; null clears it.' })
  @IsOptional()
  @HexColour('color')
  color?: string | null;
}

export const TaskPage = Paginated(Task, 'TaskPage');
export type TaskPage = InstanceType<typeof TaskPage>;

export const TaskCategoryPage = Paginated(TaskCategory, 'TaskCategoryPage');
export type TaskCategoryPage = InstanceType<typeof TaskCategoryPage>;
