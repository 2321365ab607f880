import { NotFoundError } from '../../core/errors.js';
import { TrashItem } from '../../trash/trash-item.entity.js';
import { TrashService } from '../../trash/trash.service.js';
import { UndoConflictError } from '../undo-errors.js';
import type { UndoKind } from '../undo-kind.js';

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

/** The deletes of the eight trash kinds (docs/trash.md). */
export const TRASHED_DELETES: readonly UndoKind[] = [
  trashedDelete('task_delete', 'deleteTask', 'taskId', 'task'),
  trashedDelete('project_task_delete', 'deleteProjectTask', 'taskId', 'projectTask'),
  trashedDelete('note_delete', 'deleteBrainNote', 'noteId', 'note'),
  trashedDelete('record_delete', 'deleteBrainRecord', 'recordId', 'record'),
  trashedDelete('person_delete', 'deletePerson', 'personId', 'person'),
  trashedDelete('transaction_delete', 'deleteTransaction', 'transactionId', 'transaction'),
  trashedDelete('habit_delete', 'deleteHabit', 'habitId', 'habit'),
  trashedDelete('file_delete', 'deleteFile', 'fileId', 'file'),
];
