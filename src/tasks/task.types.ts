import { ArgsType, Field, Int } from 'type-graphql';
import { IsEnum, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IfPresent } from '../core/validation/if-present.js';
import { PageArgs, Paginated } from '../core/pagination.js';
import { UUID } from '../core/scalars.js';
import { TaskCategory } from './task-category.entity.js';
import { TaskStatus } from './task-status.js';
import { Task } from './task.entity.js';
import { HEX_COLOR, NOT_BLANK } from '../core/validation/text.js';

export const TITLE_MAX = 500;
export const DESCRIPTION_MAX = 10_000;
export const NEXT_STEP_MAX = 2_000;
/** A timebox is a whole number of minutes, at most one day. */
export const TIMEBOX_MAX = 1_440;
/** Tasks one day may hold (the `enforce_row_cap` trigger, migration 20261124163000). */
export const DAY_TASKS_MAX = 200;
export const CATEGORY_NAME_MAX = 100;


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
}

@ArgsType()
export class CreateTaskArgs {
  @Field(() => String)
  @IsString()
  @MinLength(1, { message: 'title must not be empty' })
  @MaxLength(TITLE_MAX, { message: `title must be at most ${TITLE_MAX} characters` })
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string | null;

  @Field(() => Int, { description: 'Hard maximum duration in minutes, 1-1440.' })
  @IsInt({ message: 'timebox must be a whole number of minutes' })
  @Min(1, { message: 'timebox must be a positive number of minutes' })
  @Max(TIMEBOX_MAX, { message: `timebox must be at most ${TIMEBOX_MAX} minutes` })
  timebox!: number;

  @Field(() => UUID, { nullable: true })
  categoryId?: string | null;

  @Field(() => UUID, { nullable: true })
  dayId?: string | null;
}

@ArgsType()
export class UpdateTaskArgs extends TaskIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @IsString({ message: 'title must be a string' })
  @MinLength(1, { message: 'title must not be empty' })
  @MaxLength(TITLE_MAX, { message: `title must be at most ${TITLE_MAX} characters` })
  @Matches(NOT_BLANK, { message: 'title must not be blank' })
  title?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_MAX, { message: `description must be at most ${DESCRIPTION_MAX} characters` })
  description?: string | null;

  @Field(() => TaskStatus, { nullable: true, description: '`deferred` needs a non-empty `nextStep` in the same request.' })
  @IfPresent('status')
  @IsEnum(TaskStatus, { message: 'status must be one of todo, doing, done, deferred' })
  status?: TaskStatus;

  @Field(() => Int, { nullable: true, description: 'Minutes, 1-1440.' })
  @IfPresent('timebox')
  @IsInt({ message: 'timebox must be a whole number of minutes' })
  @Min(1, { message: 'timebox must be a positive number of minutes' })
  @Max(TIMEBOX_MAX, { message: `timebox must be at most ${TIMEBOX_MAX} minutes` })
  timebox?: number;

  @Field(() => String, { nullable: true, description: 'Required (non-empty) to defer the task.' })
  @IsOptional()
  @IsString()
  @MaxLength(NEXT_STEP_MAX, { message: `nextStep must be at most ${NEXT_STEP_MAX} characters` })
  nextStep?: string | null;

  @Field(() => UUID, { nullable: true, description: 'null detaches the category.' })
  categoryId?: string | null;

  @Field(() => UUID, { nullable: true, description: 'null detaches the task from its day.' })
  dayId?: string | null;
}

@ArgsType()
export class CreateTaskCategoryArgs {
  @Field(() => String)
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(CATEGORY_NAME_MAX, { message: `name must be at most ${CATEGORY_NAME_MAX} characters` })
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB.' })
  @IsOptional()
  @Matches(HEX_COLOR, { message: 'color must be a hex colour #RRGGBB' })
  color?: string | null;
}

@ArgsType()
export class UpdateTaskCategoryArgs extends CategoryIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @IsString({ message: 'name must be a string' })
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(CATEGORY_NAME_MAX, { message: `name must be at most ${CATEGORY_NAME_MAX} characters` })
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  name?: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB; null clears it.' })
  @IsOptional()
  @Matches(HEX_COLOR, { message: 'color must be a hex colour #RRGGBB' })
  color?: string | null;
}

export const TaskPage = Paginated(Task, 'TaskPage');
export type TaskPage = InstanceType<typeof TaskPage>;

export const TaskCategoryPage = Paginated(TaskCategory, 'TaskCategoryPage');
export type TaskCategoryPage = InstanceType<typeof TaskCategoryPage>;
