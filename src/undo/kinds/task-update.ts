import { Task } from '../../tasks/task.entity.js';
import { TaskService } from '../../tasks/task.service.js';
import type { TaskStatus } from '../../tasks/task-status.js';
import { TaskApplyTo } from '../../tasks/task-apply-to.js';
import { requireUnchanged, type UndoKind } from '../undo-kind.js';

/** The fields of a task an undoable update may change: status (a completion, a deferral, a reopening) and its place (day, start time). */
const TASK_UNDO_FIELDS = ['status', 'nextStep', 'dayId', 'startTime'] as const;
const TASK_ARGS = new Set(['taskId', 'applyTo', 'expectedVersion', ...TASK_UNDO_FIELDS]);

export const taskUpdate: UndoKind = {
  kind: 'task_update',
  mutation: 'updateTask',
  async before({ em }, userId, args) {
    // A change of other fields (title, recurrence…) offers no undo: its inverse is not a status or a move.
    if (Object.keys(args).some((name) => args[name] !== undefined && !TASK_ARGS.has(name))) return null;
    if (args.applyTo === TaskApplyTo.following) return null;
    const task = await em.findOne(Task, { id: args.taskId as string, userId }, { fields: [...TASK_UNDO_FIELDS] });
    // Copied: the write changes this same managed entity.
    return task && { status: task.status, nextStep: task.nextStep, dayId: task.dayId, startTime: task.startTime };
  },
  offer(_scope, _userId, args, result, before) {
    const previous = before as Pick<Task, (typeof TASK_UNDO_FIELDS)[number]> | null;
    const task = result as Task;
    if (!previous) return null;
    const data: Record<string, unknown> = { version: task.version };
    for (const field of TASK_UNDO_FIELDS) {
      if (args[field] !== undefined && previous[field] !== task[field]) data[field] = previous[field] ?? null;
    }
    return Object.keys(data).length > 1 ? { recordId: task.id, data } : null;
  },
  async invert(scope, userId, offer) {
    const found = await scope.em.findOne(Task, { id: offer.recordId, userId }, { fields: ['version'] });
    requireUnchanged(found, offer, 'Task');
    const { version, ...changes } = offer.data as { version: number; status?: TaskStatus; nextStep?: string | null; dayId?: string | null; startTime?: string | null };
    await new TaskService(scope.em).update(userId, offer.recordId, changes, TaskApplyTo.this, version);
  },
};
