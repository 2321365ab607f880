import { ExpectedVersion } from '../core/validation/expected-version.js';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { ArrayMaxSize, ArrayMinSize, IsOptional, IsString, ValidateNested } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import { Deadline } from './deadline.entity.js';
import { Project } from './project.entity.js';
import { ProjectTask } from './project-task.entity.js';
import { Tag } from './tag.entity.js';
import { HexColour, OptionalText, RequiredText } from '../core/validation/text.js';
import { WholeNumber } from '../core/validation/numbers.js';
import { OneOf } from '../core/validation/choice.js';

export const TITLE_MAX = 300;
export const DESCRIPTION_MAX = 10_000;
export const NAME_MAX = 100;
export const TYPE_MAX = 50;
export const MAX_COLUMNS = 50;
export const MAX_LINKS = 50;
/** Tasks one board column may hold (the `enforce_row_cap` trigger, migration 20261124163000). */
export const COLUMN_TASKS_MAX = 500;
export const WORK_AMOUNT_MAX = 100_000;
export const PROJECT_STATUSES = ['active', 'on_hold', 'completed', 'archived'];
export const DEADLINE_STATUSES = ['pending', 'in_progress', 'done', 'missed'];
export const PRIORITIES = ['low', 'medium', 'high', 'urgent'];
export const TASK_STATUSES = ['todo', 'doing', 'done'];
/** The wording of the `order` rules (a board position), shared with the connector's tools. */
export const ORDER_MESSAGES = { int: 'order must be a whole number', min: 'order must not be negative' };

/** The wording of a value outside its list (status, priority), shared with the connector's tools. */
export { oneOfMessage } from '../core/validation/choice.js';

// ---------------------------------------------------------------- tags

@ArgsType()
export class TagIdArgs {
  @Field(() => UUID)
  tagId!: string;
}

@ArgsType()
export class CreateTagArgs {
  @Field(() => String)
  @RequiredText('name', NAME_MAX)
  name!: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB.' })
  @IsOptional()
  @HexColour('color')
  color?: string | null;
}

@ArgsType()
export class UpdateTagArgs extends TagIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', NAME_MAX)
  name?: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB; null removes it.' })
  @IsOptional()
  @HexColour('color')
  color?: string | null;
}

export const TagPage = Paginated(Tag, 'TagPage');
export type TagPage = InstanceType<typeof TagPage>;

// ---------------------------------------------------------------- projects

@ArgsType()
export class ProjectIdArgs {
  @Field(() => UUID)
  projectId!: string;
}

@ArgsType()
export class ListProjectsArgs extends PageArgs {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  type?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @OneOf('status', PROJECT_STATUSES)
  status?: string;
}

@ArgsType()
export class CreateProjectArgs {
  @Field(() => String)
  @RequiredText('title', TITLE_MAX)
  title!: string;

  @Field(() => String, { nullable: true })
  @OptionalText(DESCRIPTION_MAX)
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'Free text such as work or personal (default personal).' })
  @IsOptional()
  @RequiredText('type', TYPE_MAX)
  type?: string | null;

  @Field(() => String, { nullable: true, description: `${PROJECT_STATUSES.join(', ')} (default active).` })
  @IsOptional()
  @OneOf('status', PROJECT_STATUSES)
  status?: string | null;
}

@ArgsType()
export class UpdateProjectArgs extends ProjectIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @RequiredText('title', TITLE_MAX)
  title?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(DESCRIPTION_MAX)
  description?: string | null;

  @Field(() => String, { nullable: true })
  @IfPresent('type')
  @RequiredText('type', TYPE_MAX)
  type?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('status')
  @OneOf('status', PROJECT_STATUSES)
  status?: string;
}

export const ProjectPage = Paginated(Project, 'ProjectPage');
export type ProjectPage = InstanceType<typeof ProjectPage>;

// ---------------------------------------------------------------- board

/** A project's kanban board: its columns in order, each with its tasks in order. */
@ObjectType({ simpleResolvers: true })
export class Board {
  @Field(() => UUID)
  projectId!: string;
}

@InputType('BoardColumnInput')
export class BoardColumnInput {
  @Field(() => UUID, { nullable: true, description: 'An existing column of this board; leave out to add a column.' })
  id?: string | null;

  @Field(() => String)
  @RequiredText('name', NAME_MAX)
  name!: string;

  @Field(() => Int, { nullable: true, description: 'Position (0-based); defaults to the place in the list. Renumbered 0..n-1.' })
  @IsOptional()
  @WholeNumber(0, undefined, { int: 'order must be a whole number', min: 'order must not be negative' })
  order?: number | null;
}

@ArgsType()
export class UpdateBoardArgs extends ProjectIdArgs {
  @Field(() => [BoardColumnInput], { description: 'The whole board: columns left out are removed (only when empty).' })
  @ArrayMinSize(1, { message: 'a board needs at least one column' })
  @ArrayMaxSize(MAX_COLUMNS, { message: `at most ${MAX_COLUMNS} columns` })
  @ValidateNested({ each: true })
  columns!: BoardColumnInput[];
}

// ---------------------------------------------------------------- project tasks

@ArgsType()
export class ProjectTaskIdArgs extends ProjectIdArgs {
  @Field(() => UUID)
  taskId!: string;
}

/** A delete that may name the `version` last read (docs/concurrency.md). */
@ArgsType()
export class DeleteProjectTaskArgs extends ProjectTaskIdArgs {
  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class ListProjectTasksArgs extends PageArgs {
  @Field(() => UUID)
  projectId!: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @OneOf('status', TASK_STATUSES)
  status?: string;

  @Field(() => UUID, { nullable: true })
  categoryId?: string;

  @Field(() => UUID, { nullable: true })
  tagId?: string;

  @Field(() => UUID, { nullable: true })
  deadlineId?: string;

  @Field(() => String, { nullable: true, description: 'Matches title and description, case-insensitively.' })
  @OptionalText(TITLE_MAX)
  search?: string;
}

@ArgsType()
export class CreateProjectTaskArgs extends ProjectIdArgs {
  @Field(() => String)
  @RequiredText('title', TITLE_MAX)
  title!: string;

  @Field(() => String, { nullable: true })
  @OptionalText(DESCRIPTION_MAX)
  description?: string | null;

  @Field(() => Int, { nullable: true })
  @IsOptional()
  @WholeNumber(0, WORK_AMOUNT_MAX, { int: 'expectedWorkAmount must be a whole number', min: 'expectedWorkAmount must not be negative' })
  expectedWorkAmount?: number | null;

  @Field(() => DateTimeISO, { nullable: true })
  dueDate?: Date | null;

  @Field(() => UUID, { nullable: true, description: 'One of your deadlines.' })
  deadlineId?: string | null;

  @Field(() => [UUID], { nullable: true, description: 'Your task categories (/task-categories).' })
  @IsOptional()
  @ArrayMaxSize(MAX_LINKS)
  categoryIds?: string[] | null;

  @Field(() => [UUID], { nullable: true, description: 'Your tags (/tags).' })
  @IsOptional()
  @ArrayMaxSize(MAX_LINKS)
  tagIds?: string[] | null;
}

@ArgsType()
export class UpdateProjectTaskArgs extends ProjectTaskIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @RequiredText('title', TITLE_MAX)
  title?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(DESCRIPTION_MAX)
  description?: string | null;

  @Field(() => Int, { nullable: true, description: 'null clears it.' })
  @IsOptional()
  @WholeNumber(0, WORK_AMOUNT_MAX, { int: 'expectedWorkAmount must be a whole number', min: 'expectedWorkAmount must not be negative' })
  expectedWorkAmount?: number | null;

  @Field(() => DateTimeISO, { nullable: true, description: 'null clears it.' })
  dueDate?: Date | null;

  @Field(() => UUID, { nullable: true, description: 'One of your deadlines; null clears it.' })
  deadlineId?: string | null;

  @Field(() => [UUID], { nullable: true, description: 'Replaces the categories; null or [] clears them.' })
  @IsOptional()
  @ArrayMaxSize(MAX_LINKS)
  categoryIds?: string[] | null;

  @Field(() => [UUID], { nullable: true, description: 'Replaces the tags; null or [] clears them.' })
  @IsOptional()
  @ArrayMaxSize(MAX_LINKS)
  tagIds?: string[] | null;

  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class MoveProjectTaskArgs extends ProjectTaskIdArgs {
  @Field(() => UUID, { description: 'A column of this project’s board.' })
  columnId!: string;

  @Field(() => Int, { description: '0-based; beyond the end places the task last.' })
  @WholeNumber(0, undefined, ORDER_MESSAGES)
  order!: number;
}

export const ProjectTaskPage = Paginated(ProjectTask, 'ProjectTaskPage');
export type ProjectTaskPage = InstanceType<typeof ProjectTaskPage>;

// ---------------------------------------------------------------- deadlines

@ArgsType()
export class DeadlineIdArgs {
  @Field(() => UUID)
  deadlineId!: string;
}

@ArgsType()
export class ListDeadlinesArgs extends PageArgs {
  @Field(() => UUID, { nullable: true })
  projectId?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @OneOf('status', DEADLINE_STATUSES)
  status?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @OneOf('priority', PRIORITIES)
  priority?: string;

  @Field(() => Boolean, { nullable: true, description: 'true: dueDate from now on and status not done; false: the others.' })
  upcoming?: boolean;
}

@ArgsType()
export class CreateDeadlineArgs {
  @Field(() => String)
  @RequiredText('title', TITLE_MAX)
  title!: string;

  @Field(() => String, { nullable: true })
  @OptionalText(DESCRIPTION_MAX)
  description?: string | null;

  @Field(() => DateTimeISO)
  dueDate!: Date;

  @Field(() => UUID, { nullable: true, description: 'One of your projects.' })
  projectId?: string | null;

  @Field(() => String, { nullable: true, description: `${PRIORITIES.join(', ')} (default medium).` })
  @IsOptional()
  @OneOf('priority', PRIORITIES)
  priority?: string | null;

  @Field(() => String, { nullable: true, description: `${DEADLINE_STATUSES.join(', ')} (default pending).` })
  @IsOptional()
  @OneOf('status', DEADLINE_STATUSES)
  status?: string | null;
}

@ArgsType()
export class UpdateDeadlineArgs extends DeadlineIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @RequiredText('title', TITLE_MAX)
  title?: string;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(DESCRIPTION_MAX)
  description?: string | null;

  @Field(() => DateTimeISO, { nullable: true })
  @IfPresent('dueDate')
  dueDate?: Date;

  @Field(() => UUID, { nullable: true, description: 'One of your projects; null detaches it.' })
  projectId?: string | null;

  @Field(() => String, { nullable: true })
  @IfPresent('priority')
  @OneOf('priority', PRIORITIES)
  priority?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('status')
  @OneOf('status', DEADLINE_STATUSES)
  status?: string;
}

export const DeadlinePage = Paginated(Deadline, 'DeadlinePage');
export type DeadlinePage = InstanceType<typeof DeadlinePage>;

