import type { ListBounds } from '../graphql/list-bounds.js';
import { PLAN_FEATURES } from '../accounts/subscription.js';
import { SESSIONS_SHOWN } from '../accounts/sessions/sessions.service.js';
import { RECOVERY_CODE_COUNT } from '../accounts/two-factor/recovery-codes.js';
import { KNOWN_TRANSPORTS, MAX_PASSKEYS } from '../accounts/passkeys/passkey-registration.js';
import { MAX_AGENDA_ENTRIES } from '../agenda/agenda.service.js';
import { MAX_DATABASES, MAX_PROPERTIES } from '../brain/databases/properties.js';
import { MAX_FIELDS, MAX_FORMS } from '../brain/forms/form-config.js';
import { CANVAS_CARDS_MAX, NOTE_TAGS_MAX } from '../brain/notes/brain-notes.types.js';
import { BRAIN_SEARCH_SOURCES } from '../brain/search/search-sources.js';
import { CONNECTIONS_SHOWN } from '../connector/connections/connection.service.js';
import { ALL_SCOPES } from '../connector/scopes/connector-scopes.js';
import { RECURRENCE_EXCEPTIONS_MAX } from '../core/recurrence/recurrence-bounds.js';
import { MAX_CHANGES_PER_BATCH } from '../core/live/change-collector.js';
import { SYNC_MAX_LIMIT } from '../sync/sync.service.js';
import { VariantName } from '../files/file-kinds.js';
import { ACHIEVEMENTS } from '../gamification/achievement-catalog.seed.js';
import { SHOP_ITEMS } from '../gamification/shop-catalog.seed.js';
import { HABITS_MAX } from '../habits/habit-limits.js';
import { METRICS } from '../insights/metrics.js';
import { WINDOW_DAYS } from '../insights/nightly-insights.js';
import { SPENDING_SHOWN } from '../insights/this-day-last-year.js';
import { LIST_ITEMS_MAX, MAX_INGREDIENTS } from '../nutrition/nutrition.types.js';
import { ChecklistKey } from '../planning/checklist-key.js';
import { DAY_ENTRIES_MAX, DAY_TRAINING_SESSIONS_MAX } from '../planning/day-record.entity.js';
import { COLUMN_TASKS_MAX, MAX_COLUMNS, MAX_LINKS } from '../projects/projects.types.js';
import { PUBLIC_SEARCH_MAX } from '../public-api/public.types.js';
import { QUICK_ALTERNATIVES_MAX, QUICK_ASSUMPTIONS_MAX, QUICK_TOKENS_MAX } from '../quick-add/quick-add.types.js';
import { PERSON_HAPPENINGS_SHOWN, IDS_MAX } from '../social/social.types.js';
import { DAY_TASKS_MAX } from '../tasks/task.types.js';
import { MAX_EXERCISES, MAX_SETS } from '../training/training.types.js';
import { MAX_ATTEMPTS } from '../webhooks/delivery-rules.js';
import { EVENTS_MAX } from '../webhooks/webhook.types.js';

const CHECKLIST_KEYS = Object.keys(ChecklistKey).length;
const DAYS_PER_WEEK = 7;
/** The perimeter holds 3 to 5 tasks (spec: Perimeter scope). */
const PERIMETER_MAX = 5;
/** Validated on exercises (training.types.ts) and settings (settings.types.ts). */
const MUSCLE_GROUPS_MAX = 20;
const WEEKLY_SPLIT_LABELS_MAX = 14;

/**
 * The most items each list the API answers whole can hold (issue 23): a cap on what its parent may
 * hold (a trigger or input validation), a catalog's size, or a cut the read makes. Every other list
 * takes a page size (`limit`). The cost estimate counts a list at its bound, and
 * test/graphql/list-bounds.test.ts fails for a list field with neither, so a new unbounded list
 * fails CI. The "Caps on lists" table of docs/security.md lists them for users.
 */
export const LIST_BOUNDS: ListBounds = {
  'Query.connections': CONNECTIONS_SHOWN,
  'Query.sessions': SESSIONS_SHOWN,
  // One event's changes: more than this in one go become one "*" change.
  'Subscription.myChanges': MAX_CHANGES_PER_BATCH,
  // A sync page answers at most its limit of feed rows, each one record or tombstone.
  'SyncPage.changes': SYNC_MAX_LIMIT,
  'SyncPage.deleted': SYNC_MAX_LIMIT,
  'SyncRecordGroup.records': SYNC_MAX_LIMIT,
  'RecoveryCodes.recoveryCodes': RECOVERY_CODE_COUNT,
  'Query.passkeys': MAX_PASSKEYS,
  'Passkey.transports': KNOWN_TRANSPORTS.length,
  'Query.publicSearchExercises': PUBLIC_SEARCH_MAX,
  'Query.publicHabits': HABITS_MAX,
  'QuickAddResult.tokens': QUICK_TOKENS_MAX,
  'QuickAddResult.alternatives': QUICK_ALTERNATIVES_MAX,
  'QuickAddResult.assumptions': QUICK_ASSUMPTIONS_MAX,
  'Query.checklist': CHECKLIST_KEYS,
  'Query.agendaRange': MAX_AGENDA_ENTRIES,
  'Query.achievements': ACHIEVEMENTS.length,
  'Query.shopItems': SHOP_ITEMS.length,
  'Query.brainEntityTypes': BRAIN_SEARCH_SOURCES.length,
  'Query.brainDatabases': MAX_DATABASES,
  'Query.brainForms': MAX_FORMS,
  'SubscriptionInfo.features': PLAN_FEATURES.pro.length,
  'Week.days': DAYS_PER_WEEK,
  'Day.requiredChecklist': CHECKLIST_KEYS,
  'Day.checklist': CHECKLIST_KEYS,
  'Day.perimeterTasks': PERIMETER_MAX,
  'Day.tasks': DAY_TASKS_MAX,
  'Day.bodyMeasurements': DAY_ENTRIES_MAX,
  'Day.trainingSessions': DAY_TRAINING_SESSIONS_MAX,
  'Day.mobilitySessions': DAY_ENTRIES_MAX,
  'Day.cardioSessions': DAY_ENTRIES_MAX,
  'Day.waterIntakes': DAY_ENTRIES_MAX,
  'Day.stepsEntries': DAY_ENTRIES_MAX,
  'Day.meditationSessions': DAY_ENTRIES_MAX,
  'Day.moodEntries': DAY_ENTRIES_MAX,
  'Day.sleepEntries': DAY_ENTRIES_MAX,
  'Day.journalEntries': DAY_ENTRIES_MAX,
  'Day.readingSessions': DAY_ENTRIES_MAX,
  'Day.socialHappenings': DAY_ENTRIES_MAX,
  'TrainingSession.exercises': MAX_EXERCISES,
  'TrainingExercise.sets': MAX_SETS,
  'File.variants': Object.keys(VariantName).length,
  'SocialHappening.guestIds': IDS_MAX,
  'SocialHappening.itemIds': IDS_MAX,
  'Settings.weeklySplitLabels': WEEKLY_SPLIT_LABELS_MAX,
  'Exercise.muscleGroups': MUSCLE_GROUPS_MAX,
  'Webhook.events': EVENTS_MAX,
  'CreatedWebhook.events': EVENTS_MAX,
  'WebhookDelivery.attemptHistory': MAX_ATTEMPTS,
  'AssistantConnection.scopes': ALL_SCOPES.length,
  'Task.recurrenceExceptions': RECURRENCE_EXCEPTIONS_MAX,
  'MealTemplate.ingredients': MAX_INGREDIENTS,
  'GroceryList.items': LIST_ITEMS_MAX,
  'Board.columns': MAX_COLUMNS,
  'BoardColumn.tasks': COLUMN_TASKS_MAX,
  'ProjectTask.categoryIds': MAX_LINKS,
  'ProjectTask.tagIds': MAX_LINKS,
  'Person.happenings': PERSON_HAPPENINGS_SHOWN,
  'GamificationCharacter.equipment': SHOP_ITEMS.length,
  'BrainNote.tagIds': NOTE_TAGS_MAX,
  'BrainCanvas.cards': CANVAS_CARDS_MAX,
  'BrainStats.recordsPerDatabase': MAX_DATABASES,
  'BrainDatabase.properties': MAX_PROPERTIES,
  'BrainFormEditor.fields': MAX_FIELDS,
  'BrainReindexResult.types': BRAIN_SEARCH_SOURCES.length,
  'Mutation.setDayPerimeter': PERIMETER_MAX,
  'Mutation.generateDinnerWeek': DAYS_PER_WEEK,
  // Habits: a person holds at most HABITS_MAX (archived ones included).
  // Insights: a finding rests on at most the window's days; a summary has one line of each kind per measure.
  'Insight.days': WINDOW_DAYS,
  'WeeklyInsightSummary.metrics': METRICS.length,
  'WeeklyInsightSummary.rose': METRICS.length,
  'WeeklyInsightSummary.fell': METRICS.length,
  'WeeklyInsightSummary.streaks': METRICS.length,
  'WeeklyInsightSummary.sentences': 2 * METRICS.length,
  'ThisDayLastYear.values': METRICS.length,
  'ThisDayLastYear.spending': SPENDING_SHOWN,
  'Day.habits': HABITS_MAX,
  'Week.habits': HABITS_MAX,
  'HabitWeek.days': DAYS_PER_WEEK,
  'Habit.weekdays': DAYS_PER_WEEK,
  'Mutation.reorderHabits': HABITS_MAX,
};
