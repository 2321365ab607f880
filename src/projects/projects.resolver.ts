import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
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
  DeleteProjectTaskArgs,
} from './projects.types.js';
import { Tag } from './tag.entity.js';
import { TagService } from './tag.service.js';
import { PageArgs } from '../core/pagination.js';
import { Service } from '../core/request-services.js';

const board = (project: Project): Board => ({ projectId: project.id });

@Authorized()
@Resolver(() => Tag)
export class TagResolver {
  @Query(() => TagPage, { description: 'Your tags for project tasks, oldest first.' })
  tags(@Args(() => PageArgs) args: PageArgs, @CurrentUserId() userId: string, @Service(TagService) tagService: TagService): Promise<TagPage> {
    return tagService.list(userId, args);
  }

  @Query(() => Tag)
  tag(@Args(() => TagIdArgs) args: TagIdArgs, @CurrentUserId() userId: string, @Service(TagService) tagService: TagService): Promise<Tag> {
    return tagService.get(userId, args.tagId);
  }

  @Mutation(() => Tag)
  createTag(@Args(() => CreateTagArgs) args: CreateTagArgs, @CurrentUserId() userId: string, @Service(TagService) tagService: TagService): Promise<Tag> {
    return tagService.create(userId, args);
  }

  @Mutation(() => Tag)
  updateTag(@Args(() => UpdateTagArgs) args: UpdateTagArgs, @CurrentUserId() userId: string, @Service(TagService) tagService: TagService): Promise<Tag> {
    const { tagId, ...changes } = args;
    return tagService.update(userId, tagId, changes);
  }

  @Mutation(() => Deleted, { description: 'The tag leaves the project tasks that carried it.' })
  deleteTag(@Args(() => TagIdArgs) args: TagIdArgs, @CurrentUserId() userId: string, @Service(TagService) tagService: TagService): Promise<Deleted> {
    return tagService.delete(userId, args.tagId);
  }
}

@Authorized()
@Resolver(() => Project)
export class ProjectResolver {
  @Query(() => ProjectPage, { description: 'Your projects, oldest first; filter by type and status.' })
  projects(@Args(() => ListProjectsArgs) args: ListProjectsArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<ProjectPage> {
    return projectService.list(userId, args);
  }

  @Query(() => Project)
  project(@Args(() => ProjectIdArgs) args: ProjectIdArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<Project> {
    return projectService.get(userId, args.projectId);
  }

  @Mutation(() => Project, { description: 'Creates the project with its board (To do, In progress, Done).' })
  createProject(@Args(() => CreateProjectArgs) args: CreateProjectArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<Project> {
    return projectService.create(userId, args);
  }

  @Mutation(() => Project)
  updateProject(@Args(() => UpdateProjectArgs) args: UpdateProjectArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<Project> {
    const { projectId, ...changes } = args;
    return projectService.update(userId, projectId, changes);
  }

  @Mutation(() => Deleted, { description: 'Deletes the project, its board and its tasks; its deadlines stay without a project.' })
  deleteProject(@Args(() => ProjectIdArgs) args: ProjectIdArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<Deleted> {
    return projectService.delete(userId, args.projectId);
  }

  @Query(() => Board, { description: "The project's board: its columns in order, each with its tasks in order." })
  async projectBoard(@Args(() => ProjectIdArgs) args: ProjectIdArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<Board> {
    return board(await projectService.get(userId, args.projectId));
  }

  @Mutation(() => Board, { description: 'Renames, reorders, adds and removes (empty) columns; task statuses follow.' })
  async updateProjectBoard(@Args(() => UpdateBoardArgs) args: UpdateBoardArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<Board> {
    return board(await projectService.updateBoard(userId, args.projectId, args.columns));
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

@Authorized()
@Resolver(() => ProjectTask)
export class ProjectTaskResolver {
  @Query(() => ProjectTaskPage, { description: 'The tasks of your project, oldest first; filter by status, category, tag, deadline or text.' })
  projectTasks(@Args(() => ListProjectTasksArgs) args: ListProjectTasksArgs, @CurrentUserId() userId: string, @Service(ProjectTaskService) projectTaskService: ProjectTaskService): Promise<ProjectTaskPage> {
    return projectTaskService.list(userId, args);
  }

  @Query(() => ProjectTask)
  projectTask(@Args(() => ProjectTaskIdArgs) args: ProjectTaskIdArgs, @CurrentUserId() userId: string, @Service(ProjectTaskService) projectTaskService: ProjectTaskService): Promise<ProjectTask> {
    return projectTaskService.get(userId, args.projectId, args.taskId);
  }

  @Mutation(() => ProjectTask, { description: "Adds the task last in the board's first column (todo)." })
  createProjectTask(@Args(() => CreateProjectTaskArgs) args: CreateProjectTaskArgs, @CurrentUserId() userId: string, @Service(ProjectTaskService) projectTaskService: ProjectTaskService): Promise<ProjectTask> {
    return projectTaskService.create(userId, args);
  }

  @Mutation(() => ProjectTask, { description: 'status follows the column: move the task to change it.' })
  updateProjectTask(@Args(() => UpdateProjectTaskArgs) args: UpdateProjectTaskArgs, @CurrentUserId() userId: string, @Service(ProjectTaskService) projectTaskService: ProjectTaskService): Promise<ProjectTask> {
    const { projectId, taskId, expectedVersion, ...changes } = args;
    return projectTaskService.update(userId, projectId, taskId, changes, expectedVersion);
  }

  @Mutation(() => Deleted, { description: 'The tasks below it in its column move up.' })
  deleteProjectTask(@Args(() => DeleteProjectTaskArgs) args: DeleteProjectTaskArgs, @CurrentUserId() userId: string, @Service(ProjectTaskService) projectTaskService: ProjectTaskService): Promise<Deleted> {
    return projectTaskService.delete(userId, args.projectId, args.taskId, args.expectedVersion);
  }

  @Mutation(() => ProjectTask, { description: 'Places the task at order (0-based) in columnId; both columns stay 0..n-1.' })
  moveProjectTask(@Args(() => MoveProjectTaskArgs) args: MoveProjectTaskArgs, @CurrentUserId() userId: string, @Service(ProjectTaskService) projectTaskService: ProjectTaskService): Promise<ProjectTask> {
    return projectTaskService.move(userId, args.projectId, args.taskId, args.columnId, args.order);
  }
}

@Authorized()
@Resolver(() => Deadline)
export class DeadlineResolver {
  @Query(() => DeadlinePage, { description: 'Your deadlines, soonest first; filter by project, status, priority, upcoming.' })
  deadlines(@Args(() => ListDeadlinesArgs) args: ListDeadlinesArgs, @CurrentUserId() userId: string, @Service(DeadlineService) deadlineService: DeadlineService): Promise<DeadlinePage> {
    return deadlineService.list(userId, args);
  }

  @Query(() => Deadline)
  deadline(@Args(() => DeadlineIdArgs) args: DeadlineIdArgs, @CurrentUserId() userId: string, @Service(DeadlineService) deadlineService: DeadlineService): Promise<Deadline> {
    return deadlineService.get(userId, args.deadlineId);
  }

  @Mutation(() => Deadline)
  createDeadline(@Args(() => CreateDeadlineArgs) args: CreateDeadlineArgs, @CurrentUserId() userId: string, @Service(DeadlineService) deadlineService: DeadlineService): Promise<Deadline> {
    return deadlineService.create(userId, args);
  }

  @Mutation(() => Deadline)
  updateDeadline(@Args(() => UpdateDeadlineArgs) args: UpdateDeadlineArgs, @CurrentUserId() userId: string, @Service(DeadlineService) deadlineService: DeadlineService): Promise<Deadline> {
    const { deadlineId, ...changes } = args;
    return deadlineService.update(userId, deadlineId, changes);
  }

  @Mutation(() => Deleted, { description: 'Its project tasks stay, without a deadline.' })
  deleteDeadline(@Args(() => DeadlineIdArgs) args: DeadlineIdArgs, @CurrentUserId() userId: string, @Service(DeadlineService) deadlineService: DeadlineService): Promise<Deleted> {
    return deadlineService.delete(userId, args.deadlineId);
  }
}
