import { User } from '../../accounts/user.entity.js';
import { deleteDatabase, updateDatabase } from '../../brain/databases/database.service.js';
import { BrainDatabase } from '../../brain/databases/brain-database.entity.js';
import { BrainRecord } from '../../brain/databases/brain-record.entity.js';
import { deleteRecord, updateRecord } from '../../brain/databases/record.service.js';
import { BrainForm } from '../../brain/forms/brain-form.entity.js';
import { deleteForm, updateForm } from '../../brain/forms/form.service.js';
import { BrainCanvas } from '../../brain/notes/brain-canvas.entity.js';
import { BrainCanvasService } from '../../brain/notes/brain-canvas.service.js';
import { BrainFolder } from '../../brain/notes/brain-folder.entity.js';
import { BrainFolderService } from '../../brain/notes/brain-folder.service.js';
import { BrainNote } from '../../brain/notes/brain-note.entity.js';
import { BrainNoteService } from '../../brain/notes/brain-note.service.js';
import { BrainTag } from '../../brain/notes/brain-tag.entity.js';
import { BrainTagService } from '../../brain/notes/brain-tag.service.js';
import { serviceFor, type ServiceScope } from '../../core/request-services.js';
import { FinanceTransaction } from '../../finance/finance-transaction.entity.js';
import { TransactionService } from '../../finance/transaction.service.js';
import { Habit } from '../../habits/habit.entity.js';
import { HabitService } from '../../habits/habit.service.js';
import { JournalEntry } from '../../journal/journal-entry.entity.js';
import { JournalEntryService } from '../../journal/journal-entry.service.js';
import { JournalQuestion } from '../../journal/journal-question.entity.js';
import { JournalQuestionService } from '../../journal/journal-question.service.js';
import { MealTemplate } from '../../nutrition/meal-template.entity.js';
import { MealTemplateService } from '../../nutrition/meal-template.service.js';
import { PerimeterTask } from '../../planning/perimeter-task.entity.js';
import { PerimeterService } from '../../planning/perimeter.service.js';
import { Deadline } from '../../projects/deadline.entity.js';
import { DeadlineService } from '../../projects/deadline.service.js';
import { ProjectTask } from '../../projects/project-task.entity.js';
import { ProjectTaskService } from '../../projects/project-task.service.js';
import { Project } from '../../projects/project.entity.js';
import { ProjectService } from '../../projects/project.service.js';
import { Tag } from '../../projects/tag.entity.js';
import { TagService } from '../../projects/tag.service.js';
import { Book } from '../../reading/book.entity.js';
import { BookService } from '../../reading/book.service.js';
import { ReadingSession } from '../../reading/reading-session.entity.js';
import { ReadingSessionService } from '../../reading/reading-session.service.js';
import { Reminder } from '../../reminders/reminder.entity.js';
import { ReminderService } from '../../reminders/reminder.service.js';
import { Person } from '../../social/person.entity.js';
import { PersonService } from '../../social/person.service.js';
import { SocialHappening } from '../../social/social-happening.entity.js';
import { SocialHappeningService } from '../../social/social-happening.service.js';
import { TaskCategory } from '../../tasks/task-category.entity.js';
import { TaskCategoryService } from '../../tasks/task-category.service.js';
import { TaskApplyTo } from '../../tasks/task-apply-to.js';
import { Task } from '../../tasks/task.entity.js';
import { TaskService } from '../../tasks/task.service.js';
import { Exercise } from '../../training/exercise.entity.js';
import { ExerciseService } from '../../training/exercise.service.js';
import { TrainingSession } from '../../training/training-session.entity.js';
import { TrainingSessionService } from '../../training/training-session.service.js';
import { WebhookEndpoint } from '../../webhooks/webhook-endpoint.entity.js';
import { WebhookService } from '../../webhooks/webhook.service.js';
import type { UndoKind } from '../undo-kind.js';
import { recordWrites } from './record-writes.js';

/** The changes as the service's own type: they are the GraphQL input's fields, by construction. */
type Changes = never;
const user = (scope: ServiceScope, userId: string): Promise<User> => scope.em.findOneOrFail(User, userId);

/**
 * The creates and field edits of the record kinds (docs/undo.md): one declaration each. `fields` are the
 * update arguments an undo restores; an update given any other (a nested list, a recurrence, a form's
 * config) offers no token.
 */
export const RECORD_WRITES: readonly UndoKind[] = [
  // The task's update kind keeps its name (`task_update`), now for every field but a recurrence.
  ...recordWrites({
    name: 'task', resource: 'Task', entity: Task, create: 'createTask', update: 'updateTask', idArg: 'taskId', trash: 'task',
    fields: ['title', 'description', 'status', 'timebox', 'nextStep', 'categoryId', 'dayId', 'startTime'],
    ignore: ['applyTo', 'expectedVersion'],
    // A recurring create made a series; a `following` edit changed the tasks after this one too.
    skip: (args) => Boolean(args.recurrence) || args.applyTo === TaskApplyTo.following,
    remove: (scope, userId, id) => serviceFor(scope, TaskService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, TaskService).update(userId, id, changes as Changes, TaskApplyTo.this),
  }),
  ...recordWrites({
    name: 'task_category', resource: 'Task category', entity: TaskCategory, create: 'createTaskCategory', update: 'updateTaskCategory', idArg: 'categoryId',
    fields: ['name', 'color'],
    remove: (scope, userId, id) => serviceFor(scope, TaskCategoryService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, TaskCategoryService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'perimeter_task', resource: 'Perimeter task', entity: PerimeterTask, create: 'createPerimeterTask', update: 'updatePerimeterTask', idArg: 'taskId',
    fields: ['title', 'personId'],
    remove: (scope, userId, id) => serviceFor(scope, PerimeterService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, PerimeterService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'project', resource: 'Project', entity: Project, create: 'createProject', update: 'updateProject', idArg: 'projectId',
    fields: ['title', 'description', 'type', 'status'],
    remove: (scope, userId, id) => serviceFor(scope, ProjectService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, ProjectService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'project_task', resource: 'Project task', entity: ProjectTask, create: 'createProjectTask', update: 'updateProjectTask', idArg: 'taskId', trash: 'projectTask',
    fields: ['title', 'description', 'expectedWorkAmount', 'dueDate', 'deadlineId', 'categoryIds', 'tagIds'],
    keep: ['projectId'], ignore: ['expectedVersion'],
    remove: (scope, userId, id, kept) => serviceFor(scope, ProjectTaskService).delete(userId, kept.projectId as string, id),
    change: (scope, userId, id, changes, kept) => serviceFor(scope, ProjectTaskService).update(userId, kept.projectId as string, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'tag', resource: 'Tag', entity: Tag, create: 'createTag', update: 'updateTag', idArg: 'tagId',
    fields: ['name', 'color'],
    remove: (scope, userId, id) => serviceFor(scope, TagService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, TagService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'deadline', resource: 'Deadline', entity: Deadline, create: 'createDeadline', update: 'updateDeadline', idArg: 'deadlineId',
    fields: ['title', 'description', 'dueDate', 'projectId', 'priority', 'status'],
    remove: (scope, userId, id) => serviceFor(scope, DeadlineService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, DeadlineService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'exercise', resource: 'Exercise', entity: Exercise, create: 'createExercise', update: 'updateExercise', idArg: 'exerciseId',
    // oneRepMax is kept per person apart from the exercise: no plain previous value here.
    fields: ['name', 'category', 'muscleGroups'],
    remove: (scope, userId, id) => serviceFor(scope, ExerciseService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, ExerciseService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'training_session', resource: 'Training session', entity: TrainingSession, create: 'createTrainingSession', update: 'updateTrainingSession', idArg: 'sessionId',
    fields: ['split', 'startTime', 'endTime', 'sessionRPE', 'notes'],
    remove: (scope, userId, id) => serviceFor(scope, TrainingSessionService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, TrainingSessionService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'webhook', resource: 'Webhook', entity: WebhookEndpoint, create: 'createWebhook', update: 'updateWebhook', idArg: 'webhookId',
    fields: ['url', 'events', 'active'],
    remove: async (scope, userId, id) => serviceFor(scope, WebhookService).delete(await user(scope, userId), id),
    change: async (scope, userId, id, changes) => serviceFor(scope, WebhookService).update(await user(scope, userId), id, changes as Changes),
  }),
  ...recordWrites({
    name: 'meal_template', resource: 'Meal template', entity: MealTemplate, create: 'createMealTemplate', update: 'updateMealTemplate', idArg: 'mealTemplateId',
    fields: ['name', 'ingredients', 'instructions', 'imageFileId', 'servings'],
    remove: (scope, userId, id) => serviceFor(scope, MealTemplateService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, MealTemplateService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'journal_question', resource: 'Journal question', entity: JournalQuestion, create: 'createJournalQuestion', update: 'updateJournalQuestion', idArg: 'questionId',
    fields: ['question', 'order'],
    remove: (scope, userId, id) => serviceFor(scope, JournalQuestionService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, JournalQuestionService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'journal_entry', resource: 'Journal entry', entity: JournalEntry, create: 'createJournalEntry', update: 'updateJournalEntry', idArg: 'entryId',
    fields: ['answer'],
    remove: (scope, userId, id) => serviceFor(scope, JournalEntryService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, JournalEntryService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'book', resource: 'Book', entity: Book, create: 'createBook', update: 'updateBook', idArg: 'bookId',
    fields: ['title', 'author', 'totalPages', 'currentPage', 'coverUrl'],
    remove: (scope, userId, id) => serviceFor(scope, BookService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, BookService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'reading_session', resource: 'Reading session', entity: ReadingSession, create: 'createReadingSession', update: 'updateReadingSession', idArg: 'sessionId',
    fields: ['pagesRead', 'duration'],
    remove: (scope, userId, id) => serviceFor(scope, ReadingSessionService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, ReadingSessionService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'habit', resource: 'Habit', entity: Habit, create: 'createHabit', update: 'updateHabit', idArg: 'habitId', trash: 'habit',
    // A schedule change takes its fields with it (docs/habits.md): no plain previous value per field.
    fields: ['name', 'icon', 'colour', 'unit', 'target', 'startDate'],
    ignore: ['expectedVersion'],
    remove: (scope, userId, id) => serviceFor(scope, HabitService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, HabitService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'person', resource: 'Person', entity: Person, create: 'createPerson', update: 'updatePerson', idArg: 'personId', trash: 'person',
    fields: ['name', 'relationshipType', 'pictureUrl', 'notes', 'birthday'],
    ignore: ['expectedVersion'],
    remove: (scope, userId, id) => serviceFor(scope, PersonService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, PersonService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'social_happening', resource: 'Social happening', entity: SocialHappening, create: 'createSocialHappening', update: 'updateSocialHappening', idArg: 'happeningId',
    fields: ['dayId', 'title', 'startTime', 'endTime', 'location', 'guestIds', 'itemIds'],
    remove: (scope, userId, id) => serviceFor(scope, SocialHappeningService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, SocialHappeningService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'transaction', resource: 'Transaction', entity: FinanceTransaction, create: 'createTransaction', update: 'updateTransaction', idArg: 'transactionId', trash: 'transaction',
    // A recurrence starts or stops a series (bookings made meanwhile stay): no plain inverse.
    fields: ['accountId', 'amount', 'description', 'category', 'date', 'recurring', 'socialHappeningId'],
    ignore: ['expectedVersion'],
    skip: (args) => Boolean(args.recurrence),
    remove: (scope, userId, id) => serviceFor(scope, TransactionService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, TransactionService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'note', resource: 'Note', entity: BrainNote, create: 'createBrainNote', update: 'updateBrainNote', idArg: 'noteId', trash: 'note',
    fields: ['title', 'content', 'folderId', 'tagIds'],
    ignore: ['expectedVersion'],
    remove: (scope, userId, id) => serviceFor(scope, BrainNoteService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, BrainNoteService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'brain_folder', resource: 'Folder', entity: BrainFolder, create: 'createBrainFolder', update: 'updateBrainFolder', idArg: 'folderId',
    fields: ['name', 'parentId'],
    remove: (scope, userId, id) => serviceFor(scope, BrainFolderService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, BrainFolderService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'brain_tag', resource: 'Tag', entity: BrainTag, create: 'createBrainTag', update: 'updateBrainTag', idArg: 'tagId',
    fields: ['name', 'color'],
    remove: (scope, userId, id) => serviceFor(scope, BrainTagService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, BrainTagService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'brain_canvas', resource: 'Canvas', entity: BrainCanvas, create: 'createBrainCanvas', update: 'updateBrainCanvas', idArg: 'canvasId',
    fields: ['name', 'cards'],
    remove: (scope, userId, id) => serviceFor(scope, BrainCanvasService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, BrainCanvasService).update(userId, id, changes as Changes),
  }),
  ...recordWrites({
    name: 'brain_database', resource: 'Database', entity: BrainDatabase, create: 'createBrainDatabase', update: 'updateBrainDatabase', idArg: 'databaseId',
    fields: ['name', 'properties'],
    remove: (scope, userId, id) => deleteDatabase(scope.em, userId, id),
    change: (scope, userId, id, changes) => updateDatabase(scope.em, userId, id, changes),
  }),
  ...recordWrites({
    name: 'record', resource: 'Record', entity: BrainRecord, create: 'createBrainRecord', update: 'updateBrainRecord', idArg: 'recordId', trash: 'record',
    fields: ['values'],
    keep: ['databaseId'], ignore: ['expectedVersion'],
    // `values` is merged: the keys given get their previous value back, null for one that was absent (removed).
    previous: { values: (current, given) => Object.fromEntries(Object.keys(given ?? {}).map((key) => [key, (current as Record<string, unknown>)[key] ?? null])) },
    remove: (scope, userId, id, kept) => deleteRecord(scope.em, userId, kept.databaseId as string, id),
    change: (scope, userId, id, changes, kept) => updateRecord(scope.em, userId, kept.databaseId as string, id, changes),
  }),
  ...recordWrites({
    name: 'brain_form', resource: 'Form', entity: BrainForm, create: 'createBrainForm', update: 'updateBrainForm', idArg: 'formId',
    // The config holds a write-only password (stored hashed): no previous value to send back.
    fields: ['name', 'syncFields'],
    // A form that made its own database: undoing it would leave that database behind.
    skip: (args) => args.createDatabase !== undefined && args.createDatabase !== null,
    remove: (scope, userId, id) => deleteForm(scope.em, userId, id),
    change: (scope, userId, id, changes) => updateForm(scope.em, userId, id, changes),
  }),
  ...recordWrites({
    name: 'reminder', resource: 'Reminder', entity: Reminder, create: 'createReminder', update: 'updateReminder', idArg: 'reminderId',
    fields: ['channel', 'offsetMinutes', 'localTime', 'active'],
    remove: (scope, userId, id) => serviceFor(scope, ReminderService).delete(userId, id),
    change: (scope, userId, id, changes) => serviceFor(scope, ReminderService).update(userId, id, changes as Changes),
  }),
];
