import { Args, Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { mayConcernProject } from './project-of-change.js';
import { ProjectService } from './project.service.js';
import { Board, ProjectIdArgs } from './projects.types.js';

/** A board re-reads for changes of its project's columns and cards (a card moved out too), and for tags (any board shows them). */
export const BOARD_TOPIC = liveTopic('board', ['Project', 'BoardColumn', 'ProjectTask', 'Tag'], { within: (change, args) => mayConcernProject(change, args.projectId) });

/** The live project board (issue 27). */
@Authorized()
@Resolver()
export class ProjectsLiveResolver {
  @Subscription(() => Board, { subscribe: liveTicks(BOARD_TOPIC), description: 'The board as `projectBoard` answers it, again after each change to your projects.' })
  async projectBoardChanged(@Args(() => ProjectIdArgs) args: ProjectIdArgs, @CurrentUserId() userId: string, @Service(ProjectService) projectService: ProjectService): Promise<Board> {
    return { projectId: (await projectService.get(userId, args.projectId)).id };
  }
}
