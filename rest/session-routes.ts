import type { AnswerFields, AnswerShape, RouteTable } from './route-table.js';

/**
 * The fields REST answers of the types whose fields the spec's tables name (interface-spec.md, "Resources
 * and their fields"): each record's id, the table's fields, the times of the state changes the spec names
 * (a task done or deferred, a day or checklist item completed), and the fields operations.md or this
 * project's docs document for the REST answer (a task's series fields: docs/reminders-and-recurrence.md).
 * Left out is bookkeeping: `createdAt` and `updatedAt` (kept where the spec lists them: user, API key,
 * webhook, image variant), a nested row's parent id the spec does not list (a day's `weekId`, a checklist
 * item's `dayId`, a grocery item's `listId`) and a day's `requiredChecklist` (its items say `required`);
 * GraphQL answers them to a client that asks. The bench's seeded week read answered 39.5 kB with them,
 * 24.3 kB without; `GET /exercises` 12.0 kB, 8.1 kB (issue 36, item 6). Types the spec does not describe
 * (habits, insights, reminders, most of the Brain, gamification) are not listed and answer every field;
 * `File` is not listed because the spec's table names all of its fields. Every session route answers
 * these unless it declares its own `fields`. `version` is in for the versioned records: a list (a week, a
 * day's tasks) answers no ETag per record, and a client needs each record's version to send If-Match later
 * (docs/concurrency.md).
 */
const SPEC_FIELDS: AnswerFields = {
  Week: ['id', 'startDate', 'endDate', 'isStressWeek'],
  Day: ['id', 'date', 'notes', 'minimumMode', 'mood', 'energy', 'sleepHours', 'completed', 'completedAt'],
  // `required`: whether the day's mode requires the item (spec rule 6, minimum mode).
  ChecklistItem: ['id', 'key', 'completed', 'value', 'completedAt', 'required', 'bookId', 'version'],
  PerimeterTask: ['id', 'title', 'personId'],
  Task: [
    'id', 'title', 'description', 'timebox', 'status', 'nextStep', 'categoryId', 'dayId', 'completedAt', 'deferredAt',
    'startTime', 'recurrence', 'seriesId', 'occurrenceDate', 'recurrenceExceptions', 'version',
  ],
  TaskCategory: ['id', 'name', 'color'],

  // Settings: the spec's week settings, and the time zone and large-expense threshold operations.md names.
  Settings: [
    'id', 'weeklySplitLabels', 'wakeTime', 'inBedTime', 'lightsOutTime', 'stressWeekWakeTime', 'stressWeekInBedTime',
    'stressWeekLightsOutTime', 'timezone', 'largeExpenseThreshold',
  ],
  // Training: the spec's tables with operations.md's metrics and the fields the Public API writes.
  TrainingSession: ['id', 'dayId', 'split', 'startTime', 'endTime', 'sessionRPE', 'notes'],
  // `exerciseName`: what a session keeps when its exercise is deleted (docs/decisions.md).
  TrainingExercise: ['id', 'exerciseId', 'exerciseName', 'order', 'volume', 'bestE1rm', 'fatigueIndex'],
  TrainingSet: [
    'id', 'setNumber', 'reps', 'load', 'rir', 'restTime', 'rpe', 'tempo', 'tut', 'rom', 'pauseDuration', 'velocity', 'notes',
    'e1rm', 'percent1rm',
  ],
  Exercise: ['id', 'name', 'category', 'muscleGroups', 'isGlobal', 'oneRepMax'],
  MobilitySession: ['id', 'dayId', 'focus', 'duration', 'intensity'],
  CardioSession: [
    'id', 'dayId', 'type', 'duration', 'distance', 'intensity', 'effort', 'pace', 'averageHeartRate', 'maxHeartRate', 'calories',
    'elevationGain', 'startTime', 'endTime', 'notes',
  ],
  // Wellness logs, on a day only: the fields the Public API writes (a nested row, so no `dayId`).
  WaterIntake: ['id', 'volume', 'time', 'notes'],
  StepsEntry: ['id', 'steps', 'time', 'notes'],
  MeditationSession: ['id', 'duration', 'type', 'time', 'notes'],
  MoodEntry: ['id', 'mood', 'energy', 'time', 'notes'],
  SleepEntry: ['id', 'duration', 'bedtime', 'wakeTime', 'quality', 'notes'],
  BodyMeasurement: ['id', 'dayId', 'weight', 'bodyFat', 'waist', 'hip', 'notes', 'measuredAt'],
  ProgressPhoto: ['id', 'dayId', 'fileId', 'pose', 'notes'],
  // Nutrition: the spec's and operations.md's fields (a grocery item as operations.md lists it: no `listId`).
  MealTemplate: ['id', 'name', 'instructions', 'imageFileId', 'servings'],
  DinnerPlan: ['id', 'weekId', 'dayId', 'date', 'mealTemplateId', 'isCookDay', 'coveredByDinnerPlanId', 'cooked', 'cookedAt'],
  GroceryList: ['id', 'weekId'],
  GroceryItem: ['id', 'name', 'quantity', 'unit', 'section', 'purchased', 'source'],
  // Reflection and reading. An entry keeps its question's text (`question`) when the question is deleted.
  JournalQuestion: ['id', 'question', 'order', 'isGlobal'],
  JournalEntry: ['id', 'dayId', 'questionId', 'question', 'answer'],
  Book: ['id', 'title', 'author', 'totalPages', 'currentPage', 'coverUrl'],
  ReadingSession: ['id', 'dayId', 'bookId', 'pagesRead', 'duration'],
  // Social: the spec's fields, and what docs/decisions.md adds (a birthday, the picture's thumbnail URL).
  Person: ['id', 'name', 'relationshipType', 'pictureUrl', 'notes', 'birthday', 'pictureThumbnailUrl', 'version'],
  SocialHappening: ['id', 'dayId', 'title', 'startTime', 'endTime', 'location', 'guestIds', 'itemIds'],
  // Projects: a project task's place on its board (`columnId`, `order`) is the spec's move; its project is in the path.
  Project: ['id', 'title', 'description', 'type', 'status'],
  BoardColumn: ['id', 'name', 'order'],
  ProjectTask: ['id', 'title', 'description', 'status', 'expectedWorkAmount', 'dueDate', 'deadlineId', 'categoryIds', 'tagIds', 'columnId', 'order', 'version'],
  Deadline: ['id', 'title', 'description', 'dueDate', 'projectId', 'priority', 'status'],
  Tag: ['id', 'name', 'color'],
  // Finance: the spec's fields, the opening balance and a transaction's series (docs/reminders-and-recurrence.md).
  FinanceAccount: ['id', 'name', 'type', 'balance', 'openingBalance', 'currency', 'isActive'],
  Transaction: [
    'id', 'accountId', 'amount', 'description', 'category', 'date', 'recurring', 'socialHappeningId', 'recurrence', 'seriesId',
    'occurrenceDate', 'nextDate', 'version',
  ],
  // Accounts, keys, webhooks, forms: the spec's lists (these name `createdAt`).
  User: ['id', 'email', 'createdAt'],
  ApiKey: ['id', 'name', 'keyPrefix', 'lastUsedAt', 'expiresAt', 'revoked', 'revokedAt', 'createdAt'],
  Webhook: ['id', 'url', 'events', 'secretPrefix', 'active', 'createdAt'],
  CreatedWebhook: ['id', 'url', 'events', 'secret', 'secretPrefix', 'active', 'createdAt'],
  ImageVariant: ['id', 'fileId', 'variant', 'status', 'width', 'height', 'size', 'storageKey', 'error', 'createdAt'],
  // `hasAccessPassword` and `syncFields`: what the editor shows (operations.md), never the password itself.
  BrainForm: ['id', 'name', 'databaseId', 'config', 'hasAccessPassword', 'syncFields', 'published', 'publicSlug'],
  BrainFormEditor: ['id', 'name', 'databaseId', 'config', 'hasAccessPassword', 'syncFields', 'published', 'publicSlug', 'fields'],
};

/** Every route of `table` answering `fields` unless it names its own. */
function answeringFields(fields: AnswerFields, table: RouteTable): RouteTable {
  return Object.fromEntries(Object.entries(table).map(([operation, route]) => [operation, { fields, ...route }]));
}

/**
 * A week as the spec's table answers it: the week with its days, each with its checklist items,
 * perimeter tasks and tasks (with their category). Other relations of a day are on `GET /days/:dayId`.
 */
const WEEK_ANSWER: AnswerShape = { days: { checklist: true, perimeterTasks: true, tasks: { category: true } } };

/** A person with their picture (its URL and variants, the thumbnail among them). */
const PERSON_ANSWER: AnswerShape = { picture: { variants: true } };

/**
 * The Session API (`/api/v1`): each route of the spec mapped to its GraphQL operation. Bodies are the
 * operation's flat arguments; path parameters are arguments of the same name.
 */
export const sessionRoutes: RouteTable = answeringFields(SPEC_FIELDS, {
  // Accounts
  'Mutation.register': { method: 'POST', path: '/auth/register', responseStatus: 201 },
  'Mutation.login': { method: 'POST', path: '/auth/login' },
  'Mutation.logout': { method: 'POST', path: '/auth/logout' },
  'Query.me': { method: 'GET', path: '/auth/me' },
  // The change feed (docs/sync.md): 410 SYNC_CURSOR_EXPIRED when the cursor is past answering
  'Query.sync': { method: 'GET', path: '/sync' },
  'Query.signInMethods': { method: 'GET', path: '/auth/sign-in-methods' },
  'Mutation.requestPasswordReset': { method: 'POST', path: '/auth/request-password-reset' },
  'Mutation.resetPassword': { method: 'POST', path: '/auth/reset-password' },
  'Mutation.changePassword': { method: 'POST', path: '/auth/change-password' },
  'Mutation.verifyEmail': { method: 'POST', path: '/auth/verify-email' },
  'Mutation.resendVerification': { method: 'POST', path: '/auth/resend-verification' },
  // Two-factor (src/accounts/two-factor): the sign-in's second step, enrolment, recovery codes
  'Mutation.completeSignIn': { method: 'POST', path: '/auth/login/second-factor' },
  'Query.twoFactor': { method: 'GET', path: '/auth/2fa' },
  'Mutation.startTotpEnrolment': { method: 'POST', path: '/auth/2fa/totp/start' },
  'Mutation.confirmTotpEnrolment': { method: 'POST', path: '/auth/2fa/totp/confirm' },
  'Mutation.disableTotp': { method: 'POST', path: '/auth/2fa/totp/disable' },
  'Mutation.regenerateRecoveryCodes': { method: 'POST', path: '/auth/2fa/recovery-codes' },
  // Sessions and devices (src/accounts/sessions)
  'Query.sessions': { method: 'GET', path: '/auth/sessions' },
  'Mutation.revokeOtherSessions': { method: 'POST', path: '/auth/sessions/revoke-others' },
  'Mutation.revokeSession': { method: 'DELETE', path: '/auth/sessions/:sessionId' },
  // Passkeys (src/accounts/passkeys)
  'Query.passkeys': { method: 'GET', path: '/auth/passkeys' },
  'Mutation.startPasskeyRegistration': { method: 'POST', path: '/auth/passkeys/registration/options' },
  'Mutation.finishPasskeyRegistration': { method: 'POST', path: '/auth/passkeys', responseStatus: 201 },
  'Mutation.renamePasskey': { method: 'PATCH', path: '/auth/passkeys/:passkeyId' },
  'Mutation.deletePasskey': { method: 'DELETE', path: '/auth/passkeys/:passkeyId' },
  'Mutation.startPasskeySignIn': { method: 'POST', path: '/auth/passkey-sign-in/options' },
  'Mutation.finishPasskeySignIn': { method: 'POST', path: '/auth/passkey-sign-in' },
  'Mutation.startSecondFactorPasskey': { method: 'POST', path: '/auth/login/second-factor/passkey/options' },
  'Mutation.completeSignInWithPasskey': { method: 'POST', path: '/auth/login/second-factor/passkey' },

  // Planning: weeks, days, checklist, perimeter
  'Mutation.generateWeek': { method: 'POST', path: '/weeks/generate', responseStatus: 201, existingStatus: 200, answer: WEEK_ANSWER },
  'Query.week': { method: 'GET', path: '/weeks/:startDate', answer: WEEK_ANSWER },
  'Mutation.updateWeek': { method: 'PATCH', path: '/weeks/:weekId', answer: WEEK_ANSWER },
  'Query.today': { method: 'GET', path: '/days/today' },
  'Query.day': { method: 'GET', path: '/days/:dayId' },
  'Mutation.updateDay': { method: 'PATCH', path: '/days/:dayId' },
  'Mutation.toggleChecklistItem': { method: 'POST', path: '/checklist/:dayId/toggle/:key' },
  'Query.checklist': { method: 'GET', path: '/checklist/:dayId' },
  'Query.perimeterTasks': { method: 'GET', path: '/perimeter/tasks' },
  'Mutation.createPerimeterTask': { method: 'POST', path: '/perimeter/tasks', responseStatus: 201 },
  'Mutation.updatePerimeterTask': { method: 'PATCH', path: '/perimeter/tasks/:taskId' },
  'Mutation.deletePerimeterTask': { method: 'DELETE', path: '/perimeter/tasks/:taskId' },
  'Mutation.setDayPerimeter': { method: 'POST', path: '/perimeter/:dayId' },

  // Quick add (src/quick-add): one line of text, one record
  'Mutation.quickAdd': { method: 'POST', path: '/quick', responseStatus: 201, existingStatus: 200, existingStatusMeans: 'Success of a dry run: what would be made, nothing written, `{ ok: true, data }`.' },

  // Settings
  'Query.settings': { method: 'GET', path: '/settings' },
  'Mutation.updateSettings': { method: 'PATCH', path: '/settings' },

  // Tasks
  'Query.tasks': { method: 'GET', path: '/tasks' },
  'Query.task': { method: 'GET', path: '/tasks/:taskId' },
  'Mutation.createTask': { method: 'POST', path: '/tasks', responseStatus: 201 },
  'Mutation.updateTask': { method: 'PATCH', path: '/tasks/:taskId' },
  'Mutation.deleteTask': { method: 'DELETE', path: '/tasks/:taskId' },
  'Query.taskCategories': { method: 'GET', path: '/task-categories' },
  'Mutation.createTaskCategory': { method: 'POST', path: '/task-categories', responseStatus: 201 },
  'Mutation.updateTaskCategory': { method: 'PATCH', path: '/task-categories/:categoryId' },
  'Mutation.deleteTaskCategory': { method: 'DELETE', path: '/task-categories/:categoryId' },

  // Training, mobility, cardio, exercises
  'Mutation.createTrainingSession': { method: 'POST', path: '/training/sessions', responseStatus: 201 },
  'Query.trainingSessions': { method: 'GET', path: '/training/sessions' },
  'Query.trainingSession': { method: 'GET', path: '/training/sessions/:sessionId' },
  'Mutation.updateTrainingSession': { method: 'PATCH', path: '/training/sessions/:sessionId' },
  'Mutation.deleteTrainingSession': { method: 'DELETE', path: '/training/sessions/:sessionId' },
  'Query.exercises': { method: 'GET', path: '/exercises' },
  'Mutation.createExercise': { method: 'POST', path: '/exercises', responseStatus: 201 },
  'Query.exercise': { method: 'GET', path: '/exercises/:exerciseId' },
  'Query.exerciseHistory': { method: 'GET', path: '/exercises/:exerciseId/history' },
  'Mutation.updateExercise': { method: 'PATCH', path: '/exercises/:exerciseId' },
  'Mutation.deleteExercise': { method: 'DELETE', path: '/exercises/:exerciseId' },
  'Mutation.createMobilitySession': { method: 'POST', path: '/mobility/sessions', responseStatus: 201 },
  'Query.mobilitySessions': { method: 'GET', path: '/mobility/sessions' },
  'Mutation.createCardioSession': { method: 'POST', path: '/cardio/sessions', responseStatus: 201 },
  'Query.cardioSessions': { method: 'GET', path: '/cardio/sessions' },

  // Nutrition: meal templates, dinner plans, grocery lists
  'Query.mealTemplates': { method: 'GET', path: '/meal-templates' },
  'Mutation.createMealTemplate': { method: 'POST', path: '/meal-templates', responseStatus: 201 },
  'Query.mealTemplate': { method: 'GET', path: '/meal-templates/:mealTemplateId' },
  'Mutation.updateMealTemplate': { method: 'PATCH', path: '/meal-templates/:mealTemplateId' },
  'Mutation.deleteMealTemplate': { method: 'DELETE', path: '/meal-templates/:mealTemplateId' },
  'Mutation.generateDinnerWeek': { method: 'POST', path: '/dinner/generate-week', responseStatus: 201, existingStatus: 200 },
  'Query.dinnerPlans': { method: 'GET', path: '/dinner' },
  'Mutation.updateDinnerPlan': { method: 'PATCH', path: '/dinner/:dinnerPlanId' },
  'Mutation.generateGroceryList': { method: 'POST', path: '/grocery/generate', responseStatus: 201, existingStatus: 200 },
  'Query.groceryList': { method: 'GET', path: '/grocery' },
  'Mutation.updateGroceryItem': { method: 'PATCH', path: '/grocery/:groceryListId/items/:itemId' },
  'Mutation.addGroceryItem': { method: 'POST', path: '/grocery/:groceryListId/items', responseStatus: 201 },

  // Body composition
  'Mutation.createBodyMeasurement': { method: 'POST', path: '/body-composition/measurements', responseStatus: 201 },
  'Query.bodyMeasurements': { method: 'GET', path: '/body-composition/measurements' },

  // Files (POST /files/upload, GET /files/:fileId/download and POST /body-composition/photos are
  // multipart or byte routes: src/app/hand-written-routes.ts)
  'Query.files': { method: 'GET', path: '/files' },
  'Query.file': { method: 'GET', path: '/files/:fileId' },
  'Query.fileUrl': { method: 'GET', path: '/files/:fileId/url' },
  'Mutation.deleteFile': { method: 'DELETE', path: '/files/:fileId' },
  'Query.progressPhotos': { method: 'GET', path: '/body-composition/photos' },

  // Journal
  'Query.journalQuestions': { method: 'GET', path: '/journal/questions' },
  'Mutation.createJournalQuestion': { method: 'POST', path: '/journal/questions', responseStatus: 201 },
  'Query.journalQuestion': { method: 'GET', path: '/journal/questions/:questionId' },
  'Mutation.updateJournalQuestion': { method: 'PATCH', path: '/journal/questions/:questionId' },
  'Mutation.deleteJournalQuestion': { method: 'DELETE', path: '/journal/questions/:questionId' },
  'Query.journalEntries': { method: 'GET', path: '/journal/entries' },
  'Mutation.createJournalEntry': { method: 'POST', path: '/journal/entries', responseStatus: 201 },
  'Query.journalEntry': { method: 'GET', path: '/journal/entries/:entryId' },
  'Mutation.updateJournalEntry': { method: 'PATCH', path: '/journal/entries/:entryId' },
  'Mutation.deleteJournalEntry': { method: 'DELETE', path: '/journal/entries/:entryId' },

  // Books and reading sessions
  'Query.books': { method: 'GET', path: '/books' },
  'Mutation.createBook': { method: 'POST', path: '/books', responseStatus: 201 },
  'Query.book': { method: 'GET', path: '/books/:bookId' },
  'Mutation.updateBook': { method: 'PATCH', path: '/books/:bookId' },
  'Mutation.deleteBook': { method: 'DELETE', path: '/books/:bookId' },
  'Query.readingSessions': { method: 'GET', path: '/reading-sessions' },
  'Mutation.createReadingSession': { method: 'POST', path: '/reading-sessions', responseStatus: 201 },
  'Query.readingSession': { method: 'GET', path: '/reading-sessions/:sessionId' },
  'Mutation.updateReadingSession': { method: 'PATCH', path: '/reading-sessions/:sessionId' },
  'Mutation.deleteReadingSession': { method: 'DELETE', path: '/reading-sessions/:sessionId' },

  // Projects, boards, project tasks, deadlines, tags
  'Query.projects': { method: 'GET', path: '/projects', answer: { items: true, meta: true } },
  'Mutation.createProject': { method: 'POST', path: '/projects', responseStatus: 201, answer: {} },
  'Query.project': { method: 'GET', path: '/projects/:projectId', answer: {} },
  'Mutation.updateProject': { method: 'PATCH', path: '/projects/:projectId', answer: {} },
  'Mutation.deleteProject': { method: 'DELETE', path: '/projects/:projectId' },
  'Query.projectBoard': { method: 'GET', path: '/projects/:projectId/board', answer: { columns: { tasks: true } } },
  'Mutation.updateProjectBoard': { method: 'PATCH', path: '/projects/:projectId/board', answer: { columns: { tasks: true } } },
  'Query.projectTasks': { method: 'GET', path: '/projects/:projectId/tasks' },
  'Mutation.createProjectTask': { method: 'POST', path: '/projects/:projectId/tasks', responseStatus: 201 },
  'Query.projectTask': { method: 'GET', path: '/projects/:projectId/tasks/:taskId' },
  'Mutation.updateProjectTask': { method: 'PATCH', path: '/projects/:projectId/tasks/:taskId' },
  'Mutation.deleteProjectTask': { method: 'DELETE', path: '/projects/:projectId/tasks/:taskId' },
  'Mutation.moveProjectTask': { method: 'POST', path: '/projects/:projectId/tasks/:taskId/move' },
  'Query.deadlines': { method: 'GET', path: '/deadlines' },
  'Mutation.createDeadline': { method: 'POST', path: '/deadlines', responseStatus: 201 },
  'Query.deadline': { method: 'GET', path: '/deadlines/:deadlineId' },
  'Mutation.updateDeadline': { method: 'PATCH', path: '/deadlines/:deadlineId' },
  'Mutation.deleteDeadline': { method: 'DELETE', path: '/deadlines/:deadlineId' },
  'Query.tags': { method: 'GET', path: '/tags' },
  'Mutation.createTag': { method: 'POST', path: '/tags', responseStatus: 201 },
  'Query.tag': { method: 'GET', path: '/tags/:tagId' },
  'Mutation.updateTag': { method: 'PATCH', path: '/tags/:tagId' },
  'Mutation.deleteTag': { method: 'DELETE', path: '/tags/:tagId' },

  // Social: people and happenings (a person's answer leaves out their happenings: GraphQL has them)
  'Query.people': { method: 'GET', path: '/people', answer: { items: PERSON_ANSWER, meta: true } },
  'Mutation.createPerson': { method: 'POST', path: '/people', responseStatus: 201, answer: PERSON_ANSWER },
  'Query.person': { method: 'GET', path: '/people/:personId', answer: PERSON_ANSWER },
  'Mutation.updatePerson': { method: 'PATCH', path: '/people/:personId', answer: PERSON_ANSWER },
  'Mutation.deletePerson': { method: 'DELETE', path: '/people/:personId' },
  'Query.socialHappenings': { method: 'GET', path: '/social-happenings' },
  'Mutation.createSocialHappening': { method: 'POST', path: '/social-happenings', responseStatus: 201 },
  'Query.socialHappening': { method: 'GET', path: '/social-happenings/:happeningId' },
  'Mutation.updateSocialHappening': { method: 'PATCH', path: '/social-happenings/:happeningId' },
  'Mutation.deleteSocialHappening': { method: 'DELETE', path: '/social-happenings/:happeningId' },

  // Trash (docs/trash.md)
  'Query.trash': { method: 'GET', path: '/trash' },
  'Mutation.emptyTrash': { method: 'DELETE', path: '/trash' },
  'Mutation.restoreFromTrash': { method: 'POST', path: '/trash/:trashId/restore' },
  'Mutation.deleteFromTrash': { method: 'DELETE', path: '/trash/:trashId' },

  // Undo (docs/undo.md): the token a write answered in its Undo-Token header, as the JSON body { token }.
  'Mutation.undo': { method: 'POST', path: '/undo' },

  // Habits (issue 37; docs/habits.md). Literal paths (/habits/streaks, /habits/day/…) win over /habits/:habitId.
  'Query.habits': { method: 'GET', path: '/habits' },
  'Mutation.createHabit': { method: 'POST', path: '/habits', responseStatus: 201 },
  'Mutation.reorderHabits': { method: 'POST', path: '/habits/reorder' },
  'Query.habitStreaks': { method: 'GET', path: '/habits/streaks' },
  'Query.habitsOnDay': { method: 'GET', path: '/habits/day/:dayId' },
  'Query.habitsInWeek': { method: 'GET', path: '/habits/week/:startDate' },
  'Mutation.deleteHabitEntry': { method: 'DELETE', path: '/habits/entries/:entryId' },
  'Query.habit': { method: 'GET', path: '/habits/:habitId' },
  'Mutation.updateHabit': { method: 'PATCH', path: '/habits/:habitId' },
  'Mutation.deleteHabit': { method: 'DELETE', path: '/habits/:habitId' },
  'Mutation.archiveHabit': { method: 'POST', path: '/habits/:habitId/archive' },
  'Mutation.unarchiveHabit': { method: 'POST', path: '/habits/:habitId/unarchive' },
  'Query.habitStreak': { method: 'GET', path: '/habits/:habitId/streak' },
  'Query.habitEntries': { method: 'GET', path: '/habits/:habitId/entries' },
  'Mutation.logHabitEntry': { method: 'POST', path: '/habits/:habitId/entries', responseStatus: 201 },
  'Mutation.markHabitDay': { method: 'POST', path: '/habits/:habitId/days/:dayId/mark' },

  // Finance: accounts and transactions (GET /transactions/export is a CSV route: src/app/hand-written-routes.ts)
  'Query.accounts': { method: 'GET', path: '/accounts' },
  'Mutation.createAccount': { method: 'POST', path: '/accounts', responseStatus: 201 },
  'Query.account': { method: 'GET', path: '/accounts/:accountId' },
  'Mutation.updateAccount': { method: 'PATCH', path: '/accounts/:accountId' },
  'Mutation.deleteAccount': { method: 'DELETE', path: '/accounts/:accountId' },
  'Query.transactions': { method: 'GET', path: '/transactions' },
  'Mutation.createTransaction': { method: 'POST', path: '/transactions', responseStatus: 201 },
  'Query.transaction': { method: 'GET', path: '/transactions/:transactionId' },
  'Mutation.updateTransaction': { method: 'PATCH', path: '/transactions/:transactionId' },
  'Mutation.deleteTransaction': { method: 'DELETE', path: '/transactions/:transactionId' },

  // Insights (src/insights): the summaries before /insights/:insightId, which would take their names as ids
  'Query.insights': { method: 'GET', path: '/insights' },
  'Query.insightsWeeklySummary': { method: 'GET', path: '/insights/weekly-summary' },
  'Query.thisDayLastYear': { method: 'GET', path: '/insights/this-day-last-year' },
  'Query.insight': { method: 'GET', path: '/insights/:insightId' },
  // Agenda (GET /agenda/feed/<token>.ics is outside /api/v1: src/agenda/agenda-feed.routes.ts)
  'Query.agendaRange': { method: 'GET', path: '/agenda/range' },
  'Mutation.createAgendaFeed': { method: 'POST', path: '/agenda/feed' },
  // Gamification (XP is earned through the other routes: gamification reacts to their events)
  'Query.gamificationStats': { method: 'GET', path: '/gamification/stats', answer: { streaks: true } },
  'Query.gamificationCharacter': { method: 'GET', path: '/gamification/character', answer: { stats: { streaks: true }, equipment: true } },
  'Query.achievements': { method: 'GET', path: '/gamification/achievements' },
  'Query.shopItems': { method: 'GET', path: '/gamification/shop' },
  'Mutation.purchaseShopItem': { method: 'POST', path: '/gamification/shop/:itemId/purchase', answer: { item: true } },
  // Brain: notes, folders, tags, canvases, entity search, stats (GET /brain/export is a zip route: src/app/hand-written-routes.ts)
  'Query.brainNotes': { method: 'GET', path: '/brain/notes' },
  'Mutation.createBrainNote': { method: 'POST', path: '/brain/notes', responseStatus: 201 },
  'Query.brainNote': { method: 'GET', path: '/brain/notes/:noteId' },
  'Mutation.updateBrainNote': { method: 'PATCH', path: '/brain/notes/:noteId' },
  'Mutation.deleteBrainNote': { method: 'DELETE', path: '/brain/notes/:noteId' },
  'Query.brainFolders': { method: 'GET', path: '/brain/folders' },
  'Mutation.createBrainFolder': { method: 'POST', path: '/brain/folders', responseStatus: 201 },
  'Query.brainFolder': { method: 'GET', path: '/brain/folders/:folderId' },
  'Mutation.updateBrainFolder': { method: 'PATCH', path: '/brain/folders/:folderId' },
  'Mutation.deleteBrainFolder': { method: 'DELETE', path: '/brain/folders/:folderId' },
  'Query.brainTags': { method: 'GET', path: '/brain/tags' },
  'Mutation.createBrainTag': { method: 'POST', path: '/brain/tags', responseStatus: 201 },
  'Query.brainTag': { method: 'GET', path: '/brain/tags/:tagId' },
  'Mutation.updateBrainTag': { method: 'PATCH', path: '/brain/tags/:tagId' },
  'Mutation.deleteBrainTag': { method: 'DELETE', path: '/brain/tags/:tagId' },
  'Query.brainCanvases': { method: 'GET', path: '/brain/canvases' },
  'Mutation.createBrainCanvas': { method: 'POST', path: '/brain/canvases', responseStatus: 201 },
  'Query.brainCanvas': { method: 'GET', path: '/brain/canvases/:canvasId' },
  'Mutation.updateBrainCanvas': { method: 'PATCH', path: '/brain/canvases/:canvasId' },
  'Mutation.deleteBrainCanvas': { method: 'DELETE', path: '/brain/canvases/:canvasId' },
  'Query.brainSearch': { method: 'GET', path: '/brain/entities/search' },
  'Query.brainEntityTypes': { method: 'GET', path: '/brain/entities/types' },
  'Mutation.reindexBrainEntities': { method: 'POST', path: '/brain/entities/reindex' },
  'Query.brainStats': { method: 'GET', path: '/brain/stats' },
  // Brain databases, records and forms (the public form routes and page are hand-written edges: src/app/hand-written-routes.ts)
  'Query.brainDatabases': { method: 'GET', path: '/brain/databases' },
  'Mutation.createBrainDatabase': { method: 'POST', path: '/brain/databases', responseStatus: 201, strictBody: true },
  'Query.brainDatabase': { method: 'GET', path: '/brain/databases/:databaseId' },
  'Mutation.updateBrainDatabase': { method: 'PATCH', path: '/brain/databases/:databaseId', strictBody: true },
  'Mutation.deleteBrainDatabase': { method: 'DELETE', path: '/brain/databases/:databaseId' },
  'Query.brainRecords': { method: 'GET', path: '/brain/databases/:databaseId/records' },
  'Mutation.createBrainRecord': { method: 'POST', path: '/brain/databases/:databaseId/records', responseStatus: 201, strictBody: true },
  'Query.brainRecord': { method: 'GET', path: '/brain/databases/:databaseId/records/:recordId' },
  'Mutation.updateBrainRecord': { method: 'PATCH', path: '/brain/databases/:databaseId/records/:recordId', strictBody: true },
  'Mutation.deleteBrainRecord': { method: 'DELETE', path: '/brain/databases/:databaseId/records/:recordId' },
  'Query.brainForms': { method: 'GET', path: '/brain/forms' },
  'Mutation.createBrainForm': { method: 'POST', path: '/brain/forms', responseStatus: 201, strictBody: true },
  'Query.brainForm': { method: 'GET', path: '/brain/forms/:formId' },
  'Mutation.updateBrainForm': { method: 'PATCH', path: '/brain/forms/:formId', strictBody: true },
  'Mutation.deleteBrainForm': { method: 'DELETE', path: '/brain/forms/:formId' },
  'Mutation.publishBrainForm': { method: 'POST', path: '/brain/forms/:formId/publish', strictBody: true },
  'Mutation.submitBrainForm': { method: 'POST', path: '/brain/forms/:formId/submit', responseStatus: 201, strictBody: true, validationCode: 'VALIDATION' },

  // Subscription and API keys (session cookie only; an API key is never accepted here)
  'Query.subscription': { method: 'GET', path: '/subscription' },
  'Query.apiKeys': { method: 'GET', path: '/api-keys' },
  'Mutation.createApiKey': { method: 'POST', path: '/api-keys', responseStatus: 201 },
  'Mutation.revokeApiKey': { method: 'POST', path: '/api-keys/:keyId/revoke' },
  'Mutation.rotateApiKey': { method: 'POST', path: '/api-keys/:keyId/rotate' },
  'Mutation.deleteApiKey': { method: 'DELETE', path: '/api-keys/:keyId' },

  // Assistant connector: the connected OAuth clients
  'Query.connections': { method: 'GET', path: '/connections' },
  'Mutation.narrowConnection': { method: 'PATCH', path: '/connections/:connectionId' },
  'Mutation.revokeConnection': { method: 'DELETE', path: '/connections/:connectionId' },

  // Reminders and notifications
  'Query.reminders': { method: 'GET', path: '/reminders' },
  'Mutation.createReminder': { method: 'POST', path: '/reminders', responseStatus: 201 },
  'Query.reminder': { method: 'GET', path: '/reminders/:reminderId' },
  'Mutation.updateReminder': { method: 'PATCH', path: '/reminders/:reminderId' },
  'Mutation.deleteReminder': { method: 'DELETE', path: '/reminders/:reminderId' },
  'Query.reminderDeliveries': { method: 'GET', path: '/reminders/:reminderId/deliveries' },
  'Query.vapidPublicKey': { method: 'GET', path: '/notifications/vapid-public-key' },
  'Query.pushSubscriptions': { method: 'GET', path: '/notifications/push-subscriptions' },
  'Mutation.registerPushSubscription': { method: 'POST', path: '/notifications/push-subscriptions', responseStatus: 201, existingStatus: 200 },
  'Mutation.deletePushSubscription': { method: 'DELETE', path: '/notifications/push-subscriptions/:subscriptionId' },
  'Query.notificationSettings': { method: 'GET', path: '/notifications/settings' },
  'Mutation.updateNotificationSettings': { method: 'PATCH', path: '/notifications/settings' },

  // Webhook management (session cookie and a plan with webhooks)
  'Query.webhooks': { method: 'GET', path: '/webhooks' },
  'Mutation.createWebhook': { method: 'POST', path: '/webhooks', responseStatus: 201 },
  'Mutation.updateWebhook': { method: 'PUT', path: '/webhooks/:webhookId' },
  'Mutation.deleteWebhook': { method: 'DELETE', path: '/webhooks/:webhookId' },
  'Query.webhookDeliveries': { method: 'GET', path: '/webhooks/:webhookId/deliveries' },
  'Mutation.testWebhook': { method: 'POST', path: '/webhooks/:webhookId/test' },
});
