import type { NonEmptyArray } from 'type-graphql';
import { AuthResolver } from '../accounts/auth.resolver.js';
import { TwoFactorResolver } from '../accounts/two-factor/two-factor.resolver.js';
import { SessionsResolver } from '../accounts/sessions/sessions.resolver.js';
import { PasskeyResolver } from '../accounts/passkeys/passkey.resolver.js';
import { SubscriptionResolver } from '../accounts/subscription.resolver.js';
import { SignInMethodsResolver } from '../accounts/oidc/sign-in-methods.resolver.js';
import { ApiKeyResolver } from '../api-keys/api-key.resolver.js';
import { ConnectionResolver } from '../connector/connections/connection.resolver.js';
import { PublicApiResolver } from '../public-api/public.resolver.js';
import { ChecklistResolver } from '../planning/checklist.resolver.js';
import { DayResolver } from '../planning/day.resolver.js';
import { PerimeterResolver } from '../planning/perimeter.resolver.js';
import { WeekResolver } from '../planning/week.resolver.js';
import { SettingsResolver } from '../settings/settings.resolver.js';
import { DayTasksResolver } from '../tasks/day-tasks.resolver.js';
import { TaskCategoryResolver } from '../tasks/task-category.resolver.js';
import { TaskResolver } from '../tasks/task.resolver.js';
import { BodyMeasurementResolver, DayBodyResolver } from '../body/body-measurement.resolver.js';
import { DayTrainingResolver } from '../training/day-training.resolver.js';
import { ExerciseResolver } from '../training/exercise.resolver.js';
import { CardioSessionResolver, MobilitySessionResolver } from '../training/mobility-cardio.resolver.js';
import { TrainingExerciseResolver, TrainingSessionResolver, TrainingSetResolver } from '../training/training-session.resolver.js';
import { DayWellnessResolver, WellnessResolver } from '../wellness/wellness.resolver.js';
import { WebhookDeliveryResolver, WebhookResolver } from '../webhooks/webhook.resolver.js';
import { FileResolver } from '../files/file.resolver.js';
import { ProgressPhotoResolver } from '../body/progress-photo.resolver.js';
import { MealTemplateResolver } from '../nutrition/meal-template.resolver.js';
import { DayDinnerResolver, DinnerPlanResolver } from '../nutrition/dinner-plan.resolver.js';
import { GroceryListResolver } from '../nutrition/grocery-list.resolver.js';
import { DayJournalResolver, JournalEntryResolver, JournalQuestionResolver } from '../journal/journal.resolver.js';
import { BoardColumnResolver, BoardResolver, DeadlineResolver, ProjectResolver, ProjectTaskResolver, TagResolver } from '../projects/projects.resolver.js';
import { BookResolver, ChecklistBookResolver, DayReadingResolver, ReadingSessionResolver } from '../reading/reading.resolver.js';
import { TrashResolver } from '../trash/trash.resolver.js';
import { UndoResolver } from '../undo/undo.resolver.js';
import { DayHabitsResolver, HabitEntryResolver, HabitResolver, WeekHabitsResolver } from '../habits/habit.resolver.js';
import { DaySocialResolver, PersonResolver, SocialHappeningResolver } from '../social/social.resolver.js';
import { FinanceAccountResolver, FinanceTransactionResolver } from '../finance/finance.resolver.js';
import { AgendaResolver } from '../agenda/agenda.resolver.js';
import { GamificationResolver } from '../gamification/gamification.resolver.js';
import { BrainCanvasResolver, BrainFolderResolver, BrainNoteResolver, BrainTagResolver } from '../brain/notes/brain-notes.resolver.js';
import { BrainSearchResolver } from '../brain/search/brain-search.resolver.js';
import { BrainStatsResolver } from '../brain/stats/brain-stats.resolver.js';
import { BrainDatabaseResolver, BrainRecordResolver } from '../brain/databases/brain-data.resolver.js';
import { BrainFormResolver } from '../brain/forms/brain-forms.resolver.js';
import { NotificationResolver, ReminderResolver } from '../reminders/reminder.resolver.js';
import { PlanningLiveResolver } from '../planning/planning.live.js';
import { TasksLiveResolver } from '../tasks/tasks.live.js';
import { GamificationLiveResolver } from '../gamification/gamification.live.js';
import { NutritionLiveResolver } from '../nutrition/nutrition.live.js';
import { ProjectsLiveResolver } from '../projects/projects.live.js';
import { MyChangesResolver } from '../live/my-changes.resolver.js';
import { SyncResolver } from '../sync/sync.resolver.js';
import { QuickAddResolver } from '../quick-add/quick-add.resolver.js';
import { InsightResolver } from '../insights/insights.resolver.js';

/** Every GraphQL resolver class; a new domain module adds its resolvers here. */
export const resolvers: NonEmptyArray<Function> = [
  AuthResolver,
  TwoFactorResolver,
  SessionsResolver,
  PasskeyResolver,
  SubscriptionResolver,
  SignInMethodsResolver,
  ApiKeyResolver,
  ConnectionResolver,
  PublicApiResolver,
  QuickAddResolver,
  SettingsResolver,
  WeekResolver,
  DayResolver,
  ChecklistResolver,
  PerimeterResolver,
  TaskResolver,
  TaskCategoryResolver,
  DayTasksResolver,
  // Training, mobility, cardio; wellness logs; body composition
  ExerciseResolver,
  TrainingSessionResolver,
  TrainingExerciseResolver,
  TrainingSetResolver,
  MobilitySessionResolver,
  CardioSessionResolver,
  DayTrainingResolver,
  WellnessResolver,
  DayWellnessResolver,
  BodyMeasurementResolver,
  DayBodyResolver,
  // Files and images; progress photos
  FileResolver,
  ProgressPhotoResolver,
  // Nutrition: meal templates, dinner plans, grocery lists
  MealTemplateResolver,
  DinnerPlanResolver,
  DayDinnerResolver,
  GroceryListResolver,
  // Journal
  JournalQuestionResolver,
  JournalEntryResolver,
  DayJournalResolver,
  // Books and reading
  BookResolver,
  ReadingSessionResolver,
  DayReadingResolver,
  ChecklistBookResolver,
  // Trash
  TrashResolver,
  // Undo
  UndoResolver,
  // Habits
  HabitResolver,
  HabitEntryResolver,
  DayHabitsResolver,
  WeekHabitsResolver,
  // Projects, boards, deadlines, tags
  TagResolver,
  ProjectResolver,
  BoardResolver,
  BoardColumnResolver,
  ProjectTaskResolver,
  DeadlineResolver,
  // Social
  PersonResolver,
  SocialHappeningResolver,
  DaySocialResolver,
  // Finance
  FinanceAccountResolver,
  FinanceTransactionResolver,
  // Agenda: the unified calendar over every domain, and its feed
  AgendaResolver,
  // Gamification
  GamificationResolver,
  // Brain: notes, folders, tags, canvases; search; stats
  BrainNoteResolver,
  BrainFolderResolver,
  BrainTagResolver,
  BrainCanvasResolver,
  BrainSearchResolver,
  BrainStatsResolver,
  BrainDatabaseResolver,
  BrainRecordResolver,
  BrainFormResolver,
  // Reminders and notifications
  ReminderResolver,
  NotificationResolver,
  // Insights: findings across the domains, weekly summary, this day last year
  InsightResolver,
  // Outgoing webhooks
  WebhookResolver,
  WebhookDeliveryResolver,
  // Live updates (issue 27): subscriptions over WebSocket
  PlanningLiveResolver,
  TasksLiveResolver,
  GamificationLiveResolver,
  NutritionLiveResolver,
  ProjectsLiveResolver,
  MyChangesResolver,
  SyncResolver,
];
