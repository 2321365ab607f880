import { z } from 'zod';
import { NotFoundError } from '../../../core/errors.js';
import { boundedInt, optionalText, requiredText } from '../../../core/validation/tool-arguments.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import type { BoardColumn } from '../../../projects/board-column.entity.js';
import { DeadlineService } from '../../../projects/deadline.service.js';
import type { Project } from '../../../projects/project.entity.js';
import { boardColumns, ProjectService } from '../../../projects/project.service.js';
import type { ProjectTask } from '../../../projects/project-task.entity.js';
import { ProjectTaskService } from '../../../projects/project-task.service.js';
import { createProjectsLoaders } from '../../../projects/projects.loaders.js';
import {
  DESCRIPTION_MAX,
  MAX_COLUMNS,
  NAME_MAX,
  ORDER_MESSAGES,
  oneOfMessage,
  PROJECT_STATUSES,
  TITLE_MAX,
  TYPE_MAX,
} from '../../../projects/projects.types.js';
import { idOrName } from './by-name.js';
import { isoDateTime, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, SETS_STATE, type ConnectorTool, type ToolContext } from './tool.js';

/** Boards projects_boards answers at most per call, and cards shown per column. */
const BOARDS_MAX = 20;
const CARDS_SHOWN = 25;
/** projects_deadlines: the window's default and longest length in days, and the items of each kind answered. */
const DEADLINE_DAYS_DEFAULT = 14;
const DEADLINE_DAYS_MAX = 365;
const DUE_ITEMS_MAX = MAX_PAGE_SIZE;
/** Cards matching a title looked at, and candidates listed when none matches. */
const TITLE_MATCHES = MAX_PAGE_SIZE;

const projectStatus = z.enum(PROJECT_STATUSES as [string, ...string[]], { error: oneOfMessage('status', PROJECT_STATUSES) });
const projectIdArg = z.string().uuid().optional().describe("The project's id.");
const projectArg = z.string().min(1).max(TITLE_MAX).optional().describe("The project's title (instead of projectId): exact, or a unique part of it.");
const columnIdArg = z.string().uuid().optional().describe("A column's id on the project's board.");
const columnArg = z.string().min(1).max(NAME_MAX).optional().describe("A column's name (instead of columnId), e.g. Done.");

/** The project given by id (another user's answers NOT_FOUND, like a missing one) or by title. */
async function projectOf(ctx: ToolContext, given: { projectId?: string; project?: string }): Promise<Project> {
  const service = ctx.service(ProjectService);
  const id = await idOrName('Project', { id: given.projectId, name: given.project }, async () => (await service.list(ctx.userId, { limit: MAX_PAGE_SIZE })).items, (p) => p.title, (p) => p.id);
  return service.get(ctx.userId, id);
}

/** A column of the board by id or name; `fallback` (the first column) when neither is given, else one is required. */
async function columnOf(columns: BoardColumn[], given: { columnId?: string; column?: string }, fallback?: BoardColumn): Promise<BoardColumn> {
  if (given.columnId) {
    const column = columns.find((c) => c.id === given.columnId);
    if (!column) throw new NotFoundError('Board column', { field: 'columnId' });
    return column;
  }
  if (given.column === undefined && fallback) return fallback;
  const id = await idOrName('Board column', { name: given.column }, async () => columns, (c) => c.name, (c) => c.id);
  return columns.find((c) => c.id === id)!;
}

/** The card given by id or title, in the project when one is named, else among all the user's projects. */
async function cardOf(ctx: ToolContext, given: { taskId?: string; task?: string }, projectId: string | undefined): Promise<ProjectTask> {
  const cards = ctx.service(ProjectTaskService);
  if (given.taskId) {
    const [card] = await cards.findOwn(ctx.userId, { taskId: given.taskId, projectId }, 1);
    if (!card) throw new NotFoundError('Project task');
    return card;
  }
  let candidates: ProjectTask[] = [];
  const load = async () => {
    const found = await cards.findOwn(ctx.userId, { titleContains: given.task!.trim(), projectId }, TITLE_MATCHES);
    candidates = found.length ? found : await cards.findOwn(ctx.userId, { projectId }, 20);
    return candidates;
  };
  const id = await idOrName('Project task', { name: given.task }, load, (t) => t.title, (t) => t.id);
  return candidates.find((t) => t.id === id)!;
}

const cardOut = z.object({
  id: z.string(),
  title: z.string(),
  projectId: z.string(),
  columnId: z.string(),
  column: z.string(),
  order: z.number(),
  status: z.string().describe('todo (first column), doing, or done (last column).'),
  dueDate: isoDateTime.nullable(),
});
const cardJson = (t: ProjectTask, columns: BoardColumn[]) => ({
  id: t.id,
  title: t.title,
  projectId: t.projectId,
  columnId: t.columnId,
  column: columns.find((c) => c.id === t.columnId)?.name ?? '',
  order: t.order,
  status: t.status,
  dueDate: t.dueDate?.toISOString() ?? null,
});

const boardOut = z.object({
  id: z.string(),
  title: z.string(),
  type: z.string(),
  status: z.string(),
  columns: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      cardCount: z.number(),
      cards: z.array(z.object({ id: z.string(), title: z.string(), status: z.string(), dueDate: isoDateTime.nullable() })),
    }),
  ),
});

/** Projects with their columns in order and each column's first CARDS_SHOWN cards: two statements for all of them. */
async function boardsJson(ctx: ToolContext, projects: Project[]) {
  const loaders = createProjectsLoaders(ctx.em);
  const columns = await loaders.columnsByProjectId.loadMany(projects.map((p) => p.id));
  const lists = columns.map((c) => (Array.isArray(c) ? c : []));
  const cards = await loaders.tasksByColumnId.loadMany(lists.flat().map((c) => c.id));
  const byColumn = new Map(lists.flat().map((c, i) => [c.id, Array.isArray(cards[i]) ? cards[i] : []]));
  return projects.map((p, i) => ({
    id: p.id,
    title: p.title,
    type: p.type,
    status: p.status,
    columns: lists[i]!.map((c) => {
      const held = byColumn.get(c.id) ?? [];
      return {
        id: c.id,
        name: c.name,
        cardCount: held.length,
        cards: held.slice(0, CARDS_SHOWN).map((t) => ({ id: t.id, title: t.title, status: t.status, dueDate: t.dueDate?.toISOString() ?? null })),
      };
    }),
  }));
}

export const projectsTools: ConnectorTool[] = [
  defineTool({
    name: 'projects_boards',
    mirrors: 'Query.projects',
    title: 'Projects and their boards',
    description: `The user's projects (oldest first; one by \`projectId\` or title in \`project\`; filter by status), each with its board: columns in order, each with its card count and first ${CARDS_SHOWN} cards (id, title, status, due date). Paginated: \`page\` from 1, \`limit\` default 10 (more than ${BOARDS_MAX} counts as ${BOARDS_MAX}).`,
    inputSchema: {
      projectId: projectIdArg,
      project: projectArg,
      status: projectStatus.optional().describe(`${PROJECT_STATUSES.join(', ')}.`),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional(),
    },
    outputSchema: { projects: z.array(boardOut), meta: pageMetaOut },
    area: 'projects',
    annotations: READ_ONLY,
    async run(args, ctx) {
      if (args.projectId || args.project !== undefined) {
        const project = await projectOf(ctx, args);
        return { projects: await boardsJson(ctx, [project]), meta: { page: 1, limit: 1, total: 1 } };
      }
      const page = await ctx.service(ProjectService).list(ctx.userId, { status: args.status, page: args.page, limit: Math.min(args.limit ?? 10, BOARDS_MAX) });
      return { projects: await boardsJson(ctx, page.items), meta: page.meta };
    },
  }),
  defineTool({
    name: 'projects_create',
    mirrors: 'Mutation.createProject',
    title: 'Create a project',
    description:
      'A new project with its kanban board: the columns named in `columns` (first is todo, last is done), else To do, In progress, Done. Type defaults to personal, status to active. Records no event.',
    inputSchema: {
      title: requiredText('title', TITLE_MAX),
      description: optionalText('description', DESCRIPTION_MAX),
      type: requiredText('type', TYPE_MAX).optional().describe('Free text such as work or personal.'),
      status: projectStatus.optional(),
      columns: z.array(requiredText('name', NAME_MAX)).min(1, 'a board needs at least one column').max(MAX_COLUMNS, `at most ${MAX_COLUMNS} columns`).optional(),
    },
    outputSchema: boardOut.shape,
    area: 'projects',
    annotations: ADDITIVE,
    async run({ columns, ...input }, ctx) {
      const project = await ctx.em.transactional(async (em) => {
        const service = ctx.on(em).service(ProjectService);
        const created = await service.create(ctx.userId, input);
        if (columns) await service.updateBoard(ctx.userId, created.id, columns.map((name) => ({ name })));
        return created;
      });
      const [board] = await boardsJson(ctx, [project]);
      return board!;
    },
  }),
  defineTool({
    name: 'projects_add_card',
    mirrors: 'Mutation.createProjectTask',
    title: 'Add a card to a board',
    description:
      "A new card (project task) on a project's board, by `projectId` or title in `project`, placed last in the column given by `columnId` or name in `column` (the first column when absent); its status follows the column. The board's rules apply (a column holds at most 500 cards). Records no event.",
    inputSchema: {
      projectId: projectIdArg,
      project: projectArg,
      title: requiredText('title', TITLE_MAX),
      description: optionalText('description', DESCRIPTION_MAX),
      dueDate: z.string().datetime({ offset: true }).optional().describe('ISO date-time with offset or Z.'),
      columnId: columnIdArg,
      column: columnArg,
    },
    outputSchema: cardOut.shape,
    area: 'projects',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const project = await projectOf(ctx, args);
      const columns = await boardColumns(ctx.em, project.id);
      const target = await columnOf(columns, args, columns[0]);
      const card = await ctx.em.transactional(async (em) => {
        const cards = ctx.on(em).service(ProjectTaskService);
        const created = await cards.create(ctx.userId, {
          projectId: project.id,
          title: args.title,
          description: args.description,
          dueDate: args.dueDate ? new Date(args.dueDate) : null,
        });
        return target.id === created.columnId ? created : cards.move(ctx.userId, project.id, created.id, target.id, Number.MAX_SAFE_INTEGER);
      });
      return cardJson(card, columns);
    },
  }),
  defineTool({
    name: 'projects_move_card',
    mirrors: 'Mutation.moveProjectTask',
    title: 'Move a card',
    description:
      "Moves a card (by `taskId` or title in `task`; `projectId` or `project` narrows the search) to a column of its board (by `columnId` or name in `column`), at `order` (0-based; last when absent). Its status follows the column (first todo, last done, others doing); the board's rules refuse as in the app (a column holds at most 500 cards). Records no event.",
    inputSchema: {
      taskId: z.string().uuid().optional().describe("The card's id."),
      task: z.string().min(1).max(TITLE_MAX).optional().describe("The card's title (instead of taskId): exact, or a unique part of it."),
      projectId: projectIdArg,
      project: projectArg,
      columnId: columnIdArg,
      column: columnArg,
      order: z.number({ error: ORDER_MESSAGES.int }).int(ORDER_MESSAGES.int).min(0, ORDER_MESSAGES.min).optional().describe('0-based place in the column; last when absent.'),
    },
    outputSchema: { ...cardOut.shape, fromColumn: z.string() },
    area: 'projects',
    annotations: SETS_STATE,
    async run(args, ctx) {
      const projectId = args.projectId || args.project !== undefined ? (await projectOf(ctx, args)).id : undefined;
      const card = await cardOf(ctx, args, projectId);
      const columns = await boardColumns(ctx.em, card.projectId);
      const target = await columnOf(columns, args);
      const from = columns.find((c) => c.id === card.columnId)?.name ?? '';
      const moved = await ctx.service(ProjectTaskService).move(ctx.userId, card.projectId, card.id, target.id, args.order ?? Number.MAX_SAFE_INTEGER);
      return { ...cardJson(moved, columns), fromColumn: from };
    },
  }),
  defineTool({
    name: 'projects_deadlines',
    mirrors: 'Query.deadlines',
    title: 'Upcoming deadlines',
    description: `What is due from now to \`days\` days ahead (default ${DEADLINE_DAYS_DEFAULT}, at most ${DEADLINE_DAYS_MAX}), soonest first: deadlines not done and cards not done with a due date (at most ${DUE_ITEMS_MAX} of each), of one project (\`projectId\` or title in \`project\`) or all.`,
    inputSchema: {
      days: boundedInt('days', 1, DEADLINE_DAYS_MAX).optional(),
      projectId: projectIdArg,
      project: projectArg,
    },
    outputSchema: {
      from: isoDateTime,
      until: isoDateTime,
      deadlines: z.array(
        z.object({ id: z.string(), title: z.string(), dueDate: isoDateTime, priority: z.string(), status: z.string(), projectId: z.string().nullable(), project: z.string().nullable() }),
      ),
      cards: z.array(z.object({ id: z.string(), title: z.string(), dueDate: isoDateTime, status: z.string(), projectId: z.string(), project: z.string() })),
    },
    area: 'projects',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const projectId = args.projectId || args.project !== undefined ? (await projectOf(ctx, args)).id : undefined;
      const from = new Date();
      const until = new Date(from.getTime() + (args.days ?? DEADLINE_DAYS_DEFAULT) * 86_400_000);
      const deadlines = (await ctx.service(DeadlineService).list(ctx.userId, { projectId, upcoming: true, limit: DUE_ITEMS_MAX })).items.filter((d) => d.dueDate <= until);
      const cards = await ctx.service(ProjectTaskService).findOwn(ctx.userId, { projectId, dueFrom: from, dueUntil: until }, DUE_ITEMS_MAX);
      // The projects' titles: the first page of projects, then any project beyond it one by one.
      const projects = ctx.service(ProjectService);
      const ids = new Set([...deadlines.map((d) => d.projectId), ...cards.map((c) => c.projectId)].filter((id): id is string => !!id));
      const titles = new Map<string, string>();
      if (ids.size) for (const p of (await projects.list(ctx.userId, { limit: MAX_PAGE_SIZE })).items) titles.set(p.id, p.title);
      for (const id of ids) if (!titles.has(id)) titles.set(id, (await projects.get(ctx.userId, id)).title);
      return {
        from: from.toISOString(),
        until: until.toISOString(),
        deadlines: deadlines.map((d) => ({
          id: d.id,
          title: d.title,
          dueDate: d.dueDate.toISOString(),
          priority: d.priority,
          status: d.status,
          projectId: d.projectId ?? null,
          project: d.projectId ? (titles.get(d.projectId) ?? null) : null,
        })),
        cards: cards.map((c) => ({ id: c.id, title: c.title, dueDate: c.dueDate!.toISOString(), status: c.status, projectId: c.projectId, project: titles.get(c.projectId) ?? '' })),
      };
    },
  }),
];
