/**
 * Internal domain facts: things that happened which no webhook may subscribe to (they are not in the
 * spec's catalog, `EVENT_NAMES` stays exactly the spec's list) and which are never written to the
 * outbox. They reach in-process reactors only (see fact-dispatcher.ts), in the same transaction as
 * the change, like the catalog events. A service records the fact where the action happens; it does
 * not know who listens.
 */
export interface InternalFactPayloads {
  /** A task left `done` (status changed to anything else). */
  task_reopened: { taskId: string };
  /** A completed checklist item was un-ticked. */
  checklist_item_unticked: { dayId: string; itemKey: string };
  /** A completed day is no longer complete (an item un-ticked, the mode switched). */
  day_reopened: { dayId: string };
  training_deleted: { sessionId: string };
  mobility_logged: { sessionId: string };
  mobility_deleted: { sessionId: string };
  cardio_deleted: { sessionId: string };
  meditation_deleted: { sessionId: string };
  reading_logged: { sessionId: string; bookId: string };
  reading_deleted: { sessionId: string };
  /** A book's `currentPage` changed (it may now be finished). */
  book_progressed: { bookId: string };
  journal_entry_created: { entryId: string };
  journal_entry_deleted: { entryId: string };
  /** A habit's entries on a day reached its target (the day became DONE). */
  habit_day_done: { habitId: string; dayId: string };
  /** A habit's day fell below its target again (an entry deleted). */
  habit_day_undone: { habitId: string; dayId: string };
  /** A week (with its 7 days) was created: things that recur get their occurrences in it. */
  week_generated: { weekId: string; startDate: string };
}

export type InternalFactName = keyof InternalFactPayloads;
