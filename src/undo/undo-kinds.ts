import type { ServiceScope } from '../core/request-services.js';
import { NotFoundError } from '../core/errors.js';
import { ChecklistService } from '../planning/checklist.service.js';
import { ChecklistItem } from '../planning/checklist-item.entity.js';
import type { ChecklistKey } from '../planning/checklist-key.js';
import { Task } from '../tasks/task.entity.js';
import { TaskService } from '../tasks/task.service.js';
import type { TaskStatus } from '../tasks/task-status.js';
import { TaskApplyTo } from '../tasks/task-apply-to.js';
import { TrashItem } from '../trash/trash-item.entity.js';
import { TrashService } from '../trash/trash.service.js';
import { UndoConflictError } from './undo-errors.js';

type Args = Record<string, unknown>;

/** What a write leaves for its undo: the record it changed and what its inverse needs. */
export interface UndoOffer {
  recordId: string;
  data: Record<string, unknown>;
}

/**
 * One invertible write: the GraphQL mutation it is (so every surface built on it, GraphQL and REST,
 * offers the token), what to read before the write, what to keep after it (null: this call offers no
 * undo), and the inverse, which calls the domain's own service so its rules, XP, events, live changes
 * and the change feed follow as for any write.
 */
export interface UndoKind {
  kind: string;
  mutation: string;
  before?(scope: ServiceScope, userId: string, args: Args): Promise<unknown>;
  offer(scope: ServiceScope, userId: string, args: Args, result: unknown, before: unknown): Promise<UndoOffer | null> | UndoOffer | null;
  invert(scope: ServiceScope, userId: string, offer: UndoOffer): Promise<void>;
}

/** The fields of a task an undoable update may change: status (a completion, a deferral, a reopening) and its place (day, start time). */
const TASK_UNDO_FIELDS = ['status', 'nextStep', 'dayId', 'startTime'] as const;
const TASK_ARGS = new Set(['taskId', 'applyTo', 'expectedVersion', ...TASK_UNDO_FIELDS]);

/** The record's version now is the one the write left: otherwise someone changed it since (refused). */
function requireUnchanged(found: { version: number } | null, offer: UndoOffer, resource: string): void {
  if (!found) throw new NotFoundError(resource);
  if (found.version !== offer.data.version) throw new UndoConflictError(resource, found.version);
}

const taskUpdate: UndoKind = {
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

const checklistToggle: UndoKind = {
  kind: 'checklist_toggle',
  mutation: 'toggleChecklistItem',
  async before({ em }, userId, args) {
    // The value a ticked item held, for its tick back (a toggle that unticks forgets it).
    const item = await em.findOne(ChecklistItem, { dayId: args.dayId as string, key: args.key as ChecklistKey, userId }, { fields: ['value'] });
    return { value: item?.value ?? null };
  },
  offer(_scope, _userId, args, result, before) {
    const item = result as ChecklistItem;
    return { recordId: item.id, data: { dayId: args.dayId, key: args.key, value: (before as { value: unknown }).value, version: item.version } };
  },
  async invert(scope, userId, offer) {
    const { dayId, key, value, version } = offer.data as { dayId: string; key: ChecklistKey; value: unknown; version: number };
    const found = await scope.em.findOne(ChecklistItem, { id: offer.recordId, userId }, { fields: ['version'] });
    requireUnchanged(found, offer, 'Checklist item');
    await new ChecklistService(scope.em).toggle(userId, dayId, key, value, { expectedVersion: version });
  },
};

/** A delete that moved its record to the trash: the inverse is the trash's restore (its rules and refusals). */
function trashedDelete(kind: string, mutation: string, idArg: string, trashKind: string): UndoKind {
  return {
    kind,
    mutation,
    async offer({ em }, userId, args) {
      const recordId = args[idArg] as string;
      const item = await em.findOne(TrashItem, { userId, kind: trashKind, recordId }, { orderBy: { deletedAt: 'desc' }, fields: ['id'] });
      return item ? { recordId, data: { trashId: item.id } } : null;
    },
    async invert(scope, userId, offer) {
      try {
        await TrashService.forRequest(scope).restore(userId, offer.data.trashId as string);
      } catch (error) {
        // Deleted for good (or emptied) since: nothing is left to bring back.
        if (error instanceof NotFoundError) throw new UndoConflictError('Trash entry');
        throw error;
      }
    },
  };
}

/** Every write that answers an undo token (docs/undo.md lists them); any other write answers none. */
export const UNDO_KINDS: readonly UndoKind[] = [
  taskUpdate,
  checklistToggle,
  trashedDelete('task_delete', 'deleteTask', 'taskId', 'task'),
  trashedDelete('project_task_delete', 'deleteProjectTask', 'taskId', 'projectTask'),
  trashedDelete('note_delete', 'deleteBrainNote', 'noteId', 'note'),
  trashedDelete('record_delete', 'deleteBrainRecord', 'recordId', 'record'),
  trashedDelete('person_delete', 'deletePerson', 'personId', 'person'),
  trashedDelete('transaction_delete', 'deleteTransaction', 'transactionId', 'transaction'),
  trashedDelete('habit_delete', 'deleteHabit', 'habitId', 'habit'),
  trashedDelete('file_delete', 'deleteFile', 'fileId', 'file'),
];

const byKind = new Map(UNDO_KINDS.map((kind) => [kind.kind, kind]));
export const undoKind = (kind: string): UndoKind | undefined => byKind.get(kind);
