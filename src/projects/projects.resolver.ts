import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { requireAuth } from '../core/current-user.js';
import { BoardColumn } from './board-column.entity.js';
import { Deadline } from './deadline.entity.js';
import { DeadlineService } from './deadline.service.js';
import { Project } from './project.entity.js';
import { ProjectService } from './project.service.js';
import { ProjectTask } from './project-task.entity.js';
import { ProjectTaskService } from './project-task.service.js';
import {
  Board,
  CreateDeadlineArgs,
  CreateProjectArgs,
  CreateProjectTaskArgs,
  CreateTagArgs,
  DeadlineIdArgs,
  DeadlinePage,
  ListDeadlinesArgs,
  ListProjectsArgs,
  ListProjectTasksArgs,
  MoveProjectTaskArgs,
  ProjectIdArgs,
  ProjectPage,
  ProjectTaskIdArgs,
  ProjectTaskPage,
  TagIdArgs,
  TagPage,
  UpdateBoardArgs,
  UpdateDeadlineArgs,
  UpdateProjectArgs,
  UpdateProjectTaskArgs,
  UpdateTagArgs,
} from './projects.types.js';
import { Tag } from './tag.entity.js';
import { TagService } from './tag.service.js';
import { PageArgs } from '../core/pagination.js';

const board = (project: Project): Board => ({ projectId: project.id });

@Resolver(() => Tag)
export class TagResolver {
  @Query(() => TagPage, { description: 'Your tags for project tasks, oldest first.' })
  tags(@Args(() => PageArgs) args: PageArgs, @Ctx() ctx: AppContext): Promise<TagPage> {
    return new TagService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Query(() => Tag)
  tag(@Args(() => TagIdArgs) args: TagIdArgs, @Ctx() ctx: AppContext): Promise<Tag> {
    return new TagService(ctx.em).get(requireAuth(ctx).user.id, args.tagId);
  }

  @Mutation(() => Tag)
  createTag(@Args(() => CreateTagArgs) args: CreateTagArgs, @Ctx() ctx: AppContext): Promise<Tag> {
    return new TagService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => Tag)
  updateTag(@Args(() => UpdateTagArgs) args: UpdateTagArgs, @Ctx() ctx: AppContext): Promise<Tag> {
    const { tagId, ...changes } = args;
    return new TagService(ctx.em).update(requireAuth(ctx).user.id, tagId, changes);
  }

  @Mutation(() => Deleted, { description: 'The tag leaves the project tasks that carried it.' })
  deleteTag(@Args(() => TagIdArgs) args: TagIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new TagService(ctx.em).delete(requireAuth(ctx).user.id, args.tagId);
  }
}

@Resolver(() => Project)
export class ProjectResolver {
  @Query(() => ProjectPage, { description: 'Your projects, oldest first; filter by type and status.' })
  projects(@Args(() => ListProjectsArgs) args: ListProjectsArgs, @Ctx() ctx: AppContext): Promise<ProjectPage> {
    return new ProjectService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Query(() => Project)
  project(@Args(() => ProjectIdArgs) args: ProjectIdArgs, @Ctx() ctx: AppContext): Promise<Project> {
    return new ProjectService(ctx.em).get(requireAuth(ctx).user.id, args.projectId);
  }

  @Mutation(() => Project, { description: 'Creates the project with its board (To do, In progress, Done).' })
  createProject(@Args(() => CreateProjectArgs) args: CreateProjectArgs, @Ctx() ctx: AppContext): Promise<Project> {
    return new ProjectService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => Project)
  updateProject(@Args(() => UpdateProjectArgs) args: UpdateProjectArgs, @Ctx() ctx: AppContext): Promise<Project> {
    const { projectId, ...changes } = args;
    return new ProjectService(ctx.em).update(requireAuth(ctx).user.id, projectId, changes);
  }

  @Mutation(() => Deleted, { description: 'Deletes the project, its board and its tasks; its deadlines stay without a project.' })
  deleteProject(@Args(() => ProjectIdArgs) args: ProjectIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new ProjectService(ctx.em).delete(requireAuth(ctx).user.id, args.projectId);
  }

  @Query(() => Board, { description: "The project's board: its columns in order, each with its tasks in order." })
  async projectBoard(@Args(() => ProjectIdArgs) args: ProjectIdArgs, @Ctx() ctx: AppContext): Promise<Board> {
    return board(await new ProjectService(ctx.em).get(requireAuth(ctx).user.id, args.projectId));
  }

  @Mutation(() => Board, { description: 'Renames, reorders, adds and removes (empty) columns; task statuses follow.' })
  async updateProjectBoard(@Args(() => UpdateBoardArgs) args: UpdateBoardArgs, @Ctx() ctx: AppContext): Promise<Board> {
    return board(await new ProjectService(ctx.em).updateBoard(requireAuth(ctx).user.id, args.projectId, args.columns));
  }

  @FieldResolver(() => Board)
  board(@Root() project: Project): Board {
    return board(project);
  }
}

@Resolver(() => Board)
export class BoardResolver {
  @FieldResolver(() => [BoardColumn], { description: 'First to last.' })
  columns(@Root() root: Board, @Ctx() ctx: AppContext): Promise<BoardColumn[]> {
    return ctx.loaders.projects.columnsByProjectId.load(root.projectId);
  }
}

@Resolver(() => BoardColumn)
export class BoardColumnResolver {
  @FieldResolver(() => [ProjectTask], { description: 'In order.' })
  tasks(@Root() column: BoardColumn, @Ctx() ctx: AppContext): Promise<ProjectTask[]> {
    return ctx.loaders.projects.tasksByColumnId.load(column.id);
  }
}

@Resolver(() => ProjectTask)
export class ProjectTaskResolver {
  @Query(() => ProjectTaskPage, { description: 'The tasks of your project, oldest first; filter by status, category, tag, deadline or text.' })
  projectTasks(@Args(() => ListProjectTasksArgs) args: ListProjectTasksArgs, @Ctx() ctx: AppContext): Promise<ProjectTaskPage> {
    return new ProjectTaskService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Query(() => ProjectTask)
  projectTask(@Args(() => ProjectTaskIdArgs) args: ProjectTaskIdArgs, @Ctx() ctx: AppContext): Promise<ProjectTask> {
    return new ProjectTaskService(ctx.em).get(requireAuth(ctx).user.id, args.projectId, args.taskId);
  }

  @Mutation(() => ProjectTask, { description: "Adds the task last in the board's first column (todo)." })
  createProjectTask(@Args(() => CreateProjectTaskArgs) args: CreateProjectTaskArgs, @Ctx() ctx: AppContext): Promise<ProjectTask> {
    return new ProjectTaskService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => ProjectTask, { description: 'status follows the column: move the task to change it.' })
  updateProjectTask(@Args(() => UpdateProjectTaskArgs) args: UpdateProjectTaskArgs, @Ctx() ctx: AppContext): Promise<ProjectTask> {
    const { projectId, taskId, ...changes } = args;
    return new ProjectTaskService(ctx.em).update(requireAuth(ctx).user.id, projectId, taskId, changes);
  }

  @Mutation(() => Deleted, { description: 'The tasks below it in its column move up.' })
  deleteProjectTask(@Args(() => ProjectTaskIdArgs) args: ProjectTaskIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new ProjectTaskService(ctx.em).delete(requireAuth(ctx).user.id, args.projectId, args.taskId);
  }

  @Mutation(() => ProjectTask, { description: 'Places the task at order (0-based) in columnId; both columns stay 0..n-1.' })
  moveProjectTask(@Args(() => MoveProjectTaskArgs) args: MoveProjectTaskArgs, @Ctx() ctx: AppContext): Promise<ProjectTask> {
    return new ProjectTaskService(ctx.em).move(requireAuth(ctx).user.id, args.projectId, args.taskId, args.columnId, args.order);
  }
}

@Resolver(() => Deadline)
export class DeadlineResolver {
  @Query(() => DeadlinePage, { description: 'Your deadlines, soonest first; filter by project, status, priority, upcoming.' })
  deadlines(@Args(() => ListDeadlinesArgs) args: ListDeadlinesArgs, @Ctx() ctx: AppContext): Promise<DeadlinePage> {
    return new DeadlineService(ctx.em).list(requireAuth(ctx).user.id, args);
  }

  @Query(() => Deadline)
  deadline(@Args(() => DeadlineIdArgs) args: DeadlineIdArgs, @Ctx() ctx: AppContext): Promise<Deadline> {
    return new DeadlineService(ctx.em).get(requireAuth(ctx).user.id, args.deadlineId);
  }

  @Mutation(() => Deadline)
  createDeadline(@Args(() => CreateDeadlineArgs) args: CreateDeadlineArgs, @Ctx() ctx: AppContext): Promise<Deadline> {
    return new DeadlineService(ctx.em).create(requireAuth(ctx).user.id, args);
  }

  @Mutation(() => Deadline)
  updateDeadline(@Args(() => UpdateDeadlineArgs) args: UpdateDeadlineArgs, @Ctx() ctx: AppContext): Promise<Deadline> {
    const { deadlineId, ...changes } = args;
    return new DeadlineService(ctx.em).update(requireAuth(ctx).user.id, deadlineId, changes);
  }

  @Mutation(() => Deleted, { description: 'Its project tasks stay, without a deadline.' })
  deleteDeadline(@Args(() => DeadlineIdArgs) args: DeadlineIdArgs, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new DeadlineService(ctx.em).delete(requireAuth(ctx).user.id, args.deadlineId);
  }
}
