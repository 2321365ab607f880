import type { EntityManager } from '@mikro-orm/postgresql';
import { queueFact } from '../../core/events/fact-dispatcher.js';
import { recordLiveChange } from '../../core/live/change-collector.js';
import { lockBook } from '../../reading/book.service.js';
import type { KeptSnapshot } from '../kept-snapshot.queries.js';
import { keepSnapshot, putBack, UNDO_SNAPSHOT_ROWS } from '../kept-snapshot.js';
import type { UndoKind } from '../undo-kind.js';
import { putTagBack, tagHoldersOf, type TagHolder } from '../undo.queries.js';

type Row = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One delete that does not go to the trash: its record's entity, and what its delete undid beyond the rows. */
interface KeptDelete {
  kind: string;
  mutation: string;
  idArg: string;
  /** The entity class deleted (its table and cascades are found from the metadata and the catalog). */
  entity: string;
  resource: string;
  /** Read before the delete: what it will undo that no foreign key shows (a tag's place in arrays); null offers no undo. */
  keep?(em: EntityManager, userId: string, id: string): Promise<Row | null>;
  /** After the rows are back, in the undo's transaction: redo what the delete undid (XP, a book's page). */
  redo?(em: EntityManager, userId: string, record: Row, kept: Row): Promise<void>;
}

/**
 * A delete made undoable by keeping, before it runs, the rows it takes (its record, its cascades, the
 * references it nulls: the trash's snapshot, bounded by kept-snapshot.ts) in the token; the inverse puts
 * them back with their ids and redoes the delete's side effects. Rows added between the snapshot and the
 * delete (a race of milliseconds) are not kept.
 */
function keptDelete(spec: KeptDelete): UndoKind {
  return {
    kind: spec.kind,
    mutation: spec.mutation,
    async before({ em }, userId, args) {
      const id = args[spec.idArg];
      if (typeof id !== 'string' || !UUID.test(id)) return null; // the delete answers a malformed id itself
      const snapshot = await keepSnapshot(em, em.getMetadata().find(spec.entity)!.tableName, userId, id);
      if (!snapshot) return null;
      const kept = spec.keep ? await spec.keep(em, userId, id) : {};
      return kept ? { snapshot, kept } : null;
    },
    offer(_scope, _userId, args, _result, before) {
      return before ? { recordId: args[spec.idArg] as string, data: before as Row } : null;
    },
    async invert({ em }, userId, offer) {
      const snapshot = offer.data.snapshot as KeptSnapshot;
      const record = { ...snapshot.rows[0]!.row };
      await putBack(em, userId, snapshot, spec.resource);
      await spec.redo?.(em, userId, record, offer.data.kept as Row);
    },
  };
}

/**
 * A tag's delete removes its id from the `tag_ids` arrays of `entity` (project cards, notes). Kept: each
 * holder's array as it was (bounded); put back in its place when the array is otherwise unchanged since,
 * else appended.
 */
function tagHolders(entity: string): Pick<KeptDelete, 'keep' | 'redo'> {
  return {
    async keep(em, userId, tagId) {
      const holders = await tagHoldersOf(em, em.getMetadata().find(entity)!.tableName, userId, tagId, UNDO_SNAPSHOT_ROWS + 1);
      return holders.length > UNDO_SNAPSHOT_ROWS ? null : { holders };
    },
    async redo(em, userId, record, kept) {
      const holders = kept.holders as TagHolder[];
      if (holders.length === 0) return;
      const back = await putTagBack(em, em.getMetadata().find(entity)!.tableName, userId, String(record.id), holders);
      for (const id of back) recordLiveChange(em, userId, { entity, id, kind: 'updated' });
    },
  };
}

/** The XP (and streaks, achievements) the delete took back, granted again by the fact of the record's creation; no webhook is sent again. */
const occurredAt = (record: Row) => new Date(String(record.created_at));

export const KEPT_DELETES: readonly UndoKind[] = [
  keptDelete({ kind: 'book_delete', mutation: 'deleteBook', idArg: 'bookId', entity: 'Book', resource: 'Book' }),
  keptDelete({ kind: 'canvas_delete', mutation: 'deleteBrainCanvas', idArg: 'canvasId', entity: 'BrainCanvas', resource: 'Canvas' }),
  keptDelete({ kind: 'database_delete', mutation: 'deleteBrainDatabase', idArg: 'databaseId', entity: 'BrainDatabase', resource: 'Database' }),
  keptDelete({ kind: 'folder_delete', mutation: 'deleteBrainFolder', idArg: 'folderId', entity: 'BrainFolder', resource: 'Folder' }),
  keptDelete({ kind: 'form_delete', mutation: 'deleteBrainForm', idArg: 'formId', entity: 'BrainForm', resource: 'Form' }),
  keptDelete({ kind: 'brain_tag_delete', mutation: 'deleteBrainTag', idArg: 'tagId', entity: 'BrainTag', resource: 'Tag', ...tagHolders('BrainNote') }),
  keptDelete({ kind: 'deadline_delete', mutation: 'deleteDeadline', idArg: 'deadlineId', entity: 'Deadline', resource: 'Deadline' }),
  keptDelete({ kind: 'exercise_delete', mutation: 'deleteExercise', idArg: 'exerciseId', entity: 'Exercise', resource: 'Exercise' }),
  keptDelete({
    kind: 'journal_entry_delete',
    mutation: 'deleteJournalEntry',
    idArg: 'entryId',
    entity: 'JournalEntry',
    resource: 'Journal entry',
    async redo(em, userId, record) {
      queueFact(em, { name: 'journal_entry_created', userId, data: { entryId: String(record.id) }, occurredAt: occurredAt(record) });
    },
  }),
  keptDelete({ kind: 'journal_question_delete', mutation: 'deleteJournalQuestion', idArg: 'questionId', entity: 'JournalQuestion', resource: 'Journal question' }),
  keptDelete({ kind: 'meal_template_delete', mutation: 'deleteMealTemplate', idArg: 'mealTemplateId', entity: 'MealTemplate', resource: 'Meal template' }),
  keptDelete({ kind: 'perimeter_task_delete', mutation: 'deletePerimeterTask', idArg: 'taskId', entity: 'PerimeterTask', resource: 'Perimeter task' }),
  keptDelete({ kind: 'project_delete', mutation: 'deleteProject', idArg: 'projectId', entity: 'Project', resource: 'Project' }),
  keptDelete({
    kind: 'reading_session_delete',
    mutation: 'deleteReadingSession',
    idArg: 'sessionId',
    entity: 'ReadingSession',
    resource: 'Reading session',
    // The delete moved the book back by the pages the session had added: forward again (within its pages).
    async redo(em, userId, record) {
      const book = await lockBook(em, userId, String(record.book_id));
      book.currentPage = Math.min(book.totalPages, book.currentPage + Number(record.pages_added));
      queueFact(em, { name: 'reading_logged', userId, data: { sessionId: String(record.id), bookId: book.id }, occurredAt: occurredAt(record) });
    },
  }),
  keptDelete({ kind: 'reminder_delete', mutation: 'deleteReminder', idArg: 'reminderId', entity: 'Reminder', resource: 'Reminder' }),
  keptDelete({ kind: 'social_happening_delete', mutation: 'deleteSocialHappening', idArg: 'happeningId', entity: 'SocialHappening', resource: 'Social happening' }),
  keptDelete({ kind: 'tag_delete', mutation: 'deleteTag', idArg: 'tagId', entity: 'Tag', resource: 'Tag', ...tagHolders('ProjectTask') }),
  keptDelete({ kind: 'task_category_delete', mutation: 'deleteTaskCategory', idArg: 'categoryId', entity: 'TaskCategory', resource: 'Task category' }),
  keptDelete({
    kind: 'training_session_delete',
    mutation: 'deleteTrainingSession',
    idArg: 'sessionId',
    entity: 'TrainingSession',
    resource: 'Training session',
    // As a fact only (not the training_logged webhook event again): the undo's write_undone tells receivers.
    async redo(em, userId, record) {
      const at = occurredAt(record);
      queueFact(em, { name: 'training_logged', userId, data: { sessionId: String(record.id), split: String(record.split), loggedAt: at.toISOString() }, occurredAt: at });
    },
  }),
  keptDelete({ kind: 'webhook_delete', mutation: 'deleteWebhook', idArg: 'webhookId', entity: 'WebhookEndpoint', resource: 'Webhook' }),
];
