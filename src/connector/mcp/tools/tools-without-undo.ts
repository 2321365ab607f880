/**
 * The assistant's write tools that answer no `undoToken` although their write is not one that offers
 * none (src/undo/not-undoable.ts names those, and their tools follow it): each still has to be wired
 * (`undoAs` and `ctx.undoable`, docs/undo.md). test/drift/tool-undo.test.ts fails on a write tool that is
 * neither wired nor named here, so a new tool cannot forget undo silently, and on a name here that is
 * wired since. The same write made in the app answers its token.
 */
const NOT_WIRED = 'not wired yet: its write answers an undo token in the app (REST, GraphQL), not here';

export const TOOLS_WITHOUT_UNDO: Readonly<Record<string, string>> = {
  training_log_session: NOT_WIRED,
  training_log_mobility: 'the log also ticks the checklist in its transaction; the log kind alone would leave the tick',
  training_log_cardio: 'the log also ticks the checklist in its transaction; the log kind alone would leave the tick',
  nutrition_set_dinner: NOT_WIRED,
  nutrition_add_meal_template: NOT_WIRED,
  nutrition_add_grocery_items: 'adds several items in one call; each item is its own write in the app',
  nutrition_tick_grocery_item: NOT_WIRED,
  journal_answer: NOT_WIRED,
  journal_change_answer: NOT_WIRED,
  journal_add_question: NOT_WIRED,
  reading_add_book: NOT_WIRED,
  reading_log_session: NOT_WIRED,
  habits_log: NOT_WIRED,
  habits_create: NOT_WIRED,
  brain_form_make: NOT_WIRED,
  brain_form_update: NOT_WIRED,
  brain_form_publish: NOT_WIRED,
  brain_form_submit: NOT_WIRED,
  brain_form_delete: NOT_WIRED,
  brain_create_note: NOT_WIRED,
  brain_append_to_note: 'an append; the note update kind restores whole fields, which would drop appends made since',
  brain_add_record: NOT_WIRED,
  people_add: NOT_WIRED,
  people_update: NOT_WIRED,
  people_log_happening: NOT_WIRED,
  projects_create: NOT_WIRED,
  projects_add_card: NOT_WIRED,
  projects_move_card: NOT_WIRED,
  finance_add_transaction: NOT_WIRED,
  reminders_add: NOT_WIRED,
  reminders_update: NOT_WIRED,
  reminders_delete: NOT_WIRED,
};
