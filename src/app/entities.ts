import { LoginSession } from '../accounts/login-session.entity.js';
import { OidcIdentity } from '../accounts/oidc/oidc-identity.entity.js';
import { Passkey } from '../accounts/passkeys/passkey.entity.js';
import { WebauthnChallenge } from '../accounts/passkeys/webauthn-challenge.entity.js';
import { AuthToken } from '../accounts/auth-token.entity.js';
import { SignInChallenge } from '../accounts/sign-in/sign-in-challenge.entity.js';
import { TotpCredential } from '../accounts/two-factor/totp-credential.entity.js';
import { RecoveryCode } from '../accounts/two-factor/recovery-code.entity.js';
import { User } from '../accounts/user.entity.js';
import { ApiKey } from '../api-keys/api-key.entity.js';
import { IdempotencyKey } from '../idempotency/idempotency-key.entity.js';
import { OAuthClient } from '../connector/oauth/oauth-client.entity.js';
import { OAuthConnection } from '../connector/oauth/oauth-connection.entity.js';
import { OAuthCode, OAuthToken } from '../connector/oauth/oauth-grant.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { OutboxEvent } from '../core/events/outbox-event.entity.js';
import { ChecklistItem } from '../planning/checklist-item.entity.js';
import { Day } from '../planning/day.entity.js';
import { DayRecord } from '../planning/day-record.entity.js';
import { DayPerimeterTask } from '../planning/day-perimeter-task.entity.js';
import { PerimeterTask } from '../planning/perimeter-task.entity.js';
import { Week } from '../planning/week.entity.js';
import { UserSettings } from '../settings/user-settings.entity.js';
import { Task } from '../tasks/task.entity.js';
import { TaskCategory } from '../tasks/task-category.entity.js';
import { BodyMeasurement } from '../body/body-measurement.entity.js';
import { CardioSession } from '../training/cardio-session.entity.js';
import { Exercise } from '../training/exercise.entity.js';
import { ExerciseSetting } from '../training/exercise-setting.entity.js';
import { MobilitySession } from '../training/mobility-session.entity.js';
import { TrainingExercise } from '../training/training-exercise.entity.js';
import { TrainingSession } from '../training/training-session.entity.js';
import { TrainingSet } from '../training/training-set.entity.js';
import { MeditationSession } from '../wellness/meditation-session.entity.js';
import { MoodEntry } from '../wellness/mood-entry.entity.js';
import { SleepEntry } from '../wellness/sleep-entry.entity.js';
import { StepsEntry } from '../wellness/steps-entry.entity.js';
import { WaterIntake } from '../wellness/water-intake.entity.js';
import { WebhookAttempt, WebhookDelivery } from '../webhooks/webhook-delivery.entity.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { StoredFile } from '../files/stored-file.entity.js';
import { ImageVariant } from '../files/image-variant.entity.js';
import { ProgressPhoto } from '../body/progress-photo.entity.js';
import { MealTemplate } from '../nutrition/meal-template.entity.js';
import { DinnerPlan } from '../nutrition/dinner-plan.entity.js';
import { GroceryItem, GroceryList } from '../nutrition/grocery-list.entity.js';
import { JournalQuestion } from '../journal/journal-question.entity.js';
import { JournalEntry } from '../journal/journal-entry.entity.js';
import { Book } from '../reading/book.entity.js';
import { ReadingSession } from '../reading/reading-session.entity.js';
import { Habit } from '../habits/habit.entity.js';
import { HabitEntry } from '../habits/habit-entry.entity.js';
import { HabitDayMarkRecord } from '../habits/habit-day-mark.entity.js';
import { Tag } from '../projects/tag.entity.js';
import { Project } from '../projects/project.entity.js';
import { BoardColumn } from '../projects/board-column.entity.js';
import { Deadline } from '../projects/deadline.entity.js';
import { ProjectTask } from '../projects/project-task.entity.js';
import { Person } from '../social/person.entity.js';
import { SocialHappening } from '../social/social-happening.entity.js';
import { FinanceAccount } from '../finance/finance-account.entity.js';
import { FinanceTransaction } from '../finance/finance-transaction.entity.js';
import { AgendaFeed } from '../agenda/agenda-feed.entity.js';
import { AccountExport } from '../portability/export/account-export.entity.js';
import { Achievement } from '../gamification/achievement.entity.js';
import { GamificationProfile } from '../gamification/gamification-profile.entity.js';
import { Purchase } from '../gamification/purchase.entity.js';
import { ShopItem } from '../gamification/shop-item.entity.js';
import { UserAchievement } from '../gamification/user-achievement.entity.js';
import { XpGrant } from '../gamification/xp-grant.entity.js';
import { BrainFolder } from '../brain/notes/brain-folder.entity.js';
import { BrainNote } from '../brain/notes/brain-note.entity.js';
import { BrainTag } from '../brain/notes/brain-tag.entity.js';
import { BrainCanvas } from '../brain/notes/brain-canvas.entity.js';
import { ImportRun } from '../portability/import/import-run.entity.js';
import { StoragePurge } from '../portability/deletion/storage-purge.entity.js';
import { BrainDatabase } from '../brain/databases/brain-database.entity.js';
import { BrainRecord } from '../brain/databases/brain-record.entity.js';
import { BrainForm } from '../brain/forms/brain-form.entity.js';
import { Reminder } from '../reminders/reminder.entity.js';
import { ReminderDelivery } from '../reminders/reminder-delivery.entity.js';
import { TrashItem } from '../trash/trash-item.entity.js';
import { UndoToken } from '../undo/undo-token.entity.js';
import { PushSubscription } from '../reminders/push-subscription.entity.js';
import { NotificationSettings } from '../reminders/notification-settings.entity.js';
import { Insight } from '../insights/insight.entity.js';
import { InsightDay, InsightRun } from '../insights/insight-day.entity.js';

/** Every MikroORM entity; a new domain module adds its entities here. */
export const entities = [
  BaseEntity,
  DayRecord,
  User,
  LoginSession,
  OidcIdentity,
  Passkey,
  WebauthnChallenge,
  AuthToken,
  SignInChallenge,
  TotpCredential,
  RecoveryCode,
  ApiKey,
  IdempotencyKey,
  OAuthClient,
  OAuthConnection,
  OAuthCode,
  OAuthToken,
  OutboxEvent,
  UserSettings,
  Week,
  Day,
  ChecklistItem,
  PerimeterTask,
  DayPerimeterTask,
  TaskCategory,
  Task,
  // Training, mobility, cardio; wellness logs; body composition
  Exercise,
  ExerciseSetting,
  TrainingSession,
  TrainingExercise,
  TrainingSet,
  MobilitySession,
  CardioSession,
  WaterIntake,
  StepsEntry,
  MeditationSession,
  MoodEntry,
  SleepEntry,
  BodyMeasurement,
  // Files and images; progress photos
  StoredFile,
  ImageVariant,
  ProgressPhoto,
  // Nutrition
  MealTemplate,
  DinnerPlan,
  GroceryList,
  GroceryItem,
  // Journal
  JournalQuestion,
  JournalEntry,
  // Books and reading
  Book,
  ReadingSession,
  // Habits
  Habit,
  HabitEntry,
  HabitDayMarkRecord,
  // Projects, boards, deadlines, tags
  Tag,
  Project,
  BoardColumn,
  Deadline,
  ProjectTask,
  // Social
  Person,
  SocialHappening,
  // Finance
  FinanceAccount,
  FinanceTransaction,
  // Agenda (reads the domains' tables; its own table is the calendar feed's token)
  AgendaFeed,
  // Gamification
  GamificationProfile,
  XpGrant,
  Achievement,
  UserAchievement,
  ShopItem,
  Purchase,
  // Brain: notes, folders, tags, canvases
  BrainFolder,
  BrainNote,
  BrainTag,
  BrainCanvas,
  // Brain: databases, records, forms
  BrainDatabase,
  BrainRecord,
  BrainForm,
  // Outgoing webhooks
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  // Reminders and notifications
  Reminder,
  ReminderDelivery,
  PushSubscription,
  NotificationSettings,
  // Insights: daily aggregates, the nightly job's bookkeeping, the findings
  InsightDay,
  InsightRun,
  Insight,
  // Portability
  AccountExport,
  // Portability: imports and account deletion
  ImportRun,
  StoragePurge,
  // Trash: deleted records, restorable until purged
  TrashItem,
  // Undo: short-lived offers to revert a write
  UndoToken,
];
