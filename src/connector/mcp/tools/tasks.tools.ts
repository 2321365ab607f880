import { z } from 'zod';
import { TaskService } from '../../../tasks/task.service.js';
import { TaskStatus } from '../../../tasks/task-status.js';
import { DESCRIPTION_MAX, NEXT_STEP_MAX, RECURRENCE_RULE_MAX, START_TIME, START_TIME_MESSAGE, TIMEBOX_MAX, TITLE_MAX } from '../../../tasks/task.types.js';
import { boundedInt, optionalText, requiredText } from '../../../core/validation/tool-arguments.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { expectedVersionArg } from './common-arguments.js';
import { taskJson } from './planning.tools.js';
import { pageMetaOut, taskOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, SETS_STATE, type ConnectorTool } from './tool.js';

const status = z.enum(Object.values(TaskStatus) as [TaskStatus, ...TaskStatus[]]);

export const tasksTools: ConnectorTool[] = [
  defineTool({
    name: 'tasks_list',
    title: 'List tasks',
    description: "The user's tasks, oldest first, optionally filtered by status, category or day; paginated (`page` from 1, `limit` up to 100).",
    inputSchema: {
      status: status.optional().describe('todo, doing, done or deferred.'),
      categoryId: z.string().uuid().optional(),
      dayId: z.string().uuid().optional(),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional().describe(`Items per page (default 50; more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`),
    },
    outputSchema: { tasks: z.array(taskOut), meta: pageMetaOut },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(TaskService).list(ctx.userId, args);
      return { tasks: page.items.map(taskJson), meta: page.meta };
    },
  }),
  defineTool({
    name: 'tasks_create',
    mirrors: 'Mutation.createTask',
    undoAs: 'createTask',
    title: 'Create a task',
    description:
      'A new task (status todo) with a hard timebox in minutes; optionally in a category, on a day, at a start time. With `recurrence` (an RRULE) and a day, ' +
      "it is the first of a recurring series: its occurrences are made as real tasks on their days (in the weeks that exist, when a week is generated, and when one is completed or deferred). Records task_created.",
    inputSchema: {
      title: requiredText('title', TITLE_MAX),
      description: optionalText('description', DESCRIPTION_MAX),
      timebox: boundedInt('timebox', 1, TIMEBOX_MAX).describe(`Minutes, 1-${TIMEBOX_MAX}.`),
      categoryId: z.string().uuid().optional(),
      dayId: z.string().uuid().optional().describe('Required with recurrence: its date starts the series.'),
      startTime: z.string({ error: START_TIME_MESSAGE }).regex(START_TIME, START_TIME_MESSAGE).optional().describe("HH:MM in the user's time zone: when the timebox starts."),
      recurrence: optionalText('recurrence', RECURRENCE_RULE_MAX).describe(
        'RFC 5545 RRULE without DTSTART, e.g. FREQ=WEEKLY;BYDAY=TU,TH or FREQ=MONTHLY;BYDAY=1FR;COUNT=6; the day must be one of its dates; a rule more often than daily must end (COUNT or UNTIL).',
      ),
    },
    outputSchema: taskOut.shape,
    area: 'planning',
    annotations: ADDITIVE,
    async run(args, ctx) {
      return taskJson(await ctx.undoable(args, () => ctx.service(TaskService).create(ctx.userId, args)));
    },
  }),
  defineTool({
    name: 'tasks_update_status',
    mirrors: 'Mutation.updateTask',
    undoAs: 'updateTask',
    title: "Change a task's status",
    description:
      'Sets a task to todo, doing, done or deferred. Deferring needs a non-empty `nextStep` (the concrete next action). Becoming done records task_completed.',
    inputSchema: {
      taskId: z.string().uuid(),
      status: status,
      nextStep: optionalText('nextStep', NEXT_STEP_MAX).describe('Required to defer.'),
      expectedVersion: expectedVersionArg('task'),
    },
    outputSchema: taskOut.shape,
    area: 'planning',
    annotations: SETS_STATE,
    async run(args, ctx) {
      const changes = { status: args.status, ...(args.nextStep !== undefined ? { nextStep: args.nextStep } : {}) };
      const write = () => ctx.service(TaskService).update(ctx.userId, args.taskId, changes, undefined, args.expectedVersion);
      return taskJson(await ctx.undoable({ taskId: args.taskId, expectedVersion: args.expectedVersion, ...changes }, write));
    },
  }),
];
