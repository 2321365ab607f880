/**
 * What the account export writes, entity by entity. data.json is derived from MikroORM's metadata:
 * every entity reachable from its owning user through its relations (directly by `user_id`, or through
 * a parent, e.g. a board column through its project) is read in batches and written under
 * `data.json[domain][collection]`. A new domain plugs in with ONE line here; the registry test fails
 * while an entity owned by a user is in neither list (see export-registry.test.ts).
 *
 * `omit` names properties never exported (secrets: hashes, encrypted secrets, token hashes).
 * `keep` acknowledges properties whose name looks secret but are not (the secret test asks for it).
 * `csv` adds one spreadsheet file of the same rows; `markdown` one Markdown file per row.
 */

export interface MarkdownSpec {
  /** Folder inside the zip, e.g. `journal`. */
  dir: string;
  /** The file name (without folder) and text of one record (record keys are property names). */
  render(record: Record<string, unknown>): { name: string; text: string };
}

export interface ExportedEntity {
  /** The top-level key of data.json. */
  domain: string;
  /** The key inside the domain's object. */
  collection: string;
  omit?: string[];
  keep?: string[];
  /** A CSV file (at the zip's root) with every exported column of the rows. */
  csv?: string;
  markdown?: MarkdownSpec;
}

export interface ExcludedEntity {
  /** Why this user-owned entity is not part of the archive. */
  excluded: string;
}

export type RegistryEntry = ExportedEntity | ExcludedEntity;

export function isExported(entry: RegistryEntry): entry is ExportedEntity {
  return 'domain' in entry;
}

/** Text safe as a file name segment in the zip. */
function slug(text: unknown): string {
  return String(text ?? '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
}

function isoDay(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value ?? '').slice(0, 10);
}

const journalMarkdown: MarkdownSpec = {
  dir: 'journal',
  render(record) {
    const created = record.createdAt instanceof Date ? record.createdAt.toISOString() : String(record.createdAt);
    const lines = [
      '---',
      `id: ${String(record.id)}`,
      `dayId: ${String(record.dayId ?? '')}`,
      `questionId: ${record.questionId ? String(record.questionId) : ''}`,
      `createdAt: ${created}`,
      '---',
      '',
      `## ${String(record.question ?? '').replace(/\r?\n/g, ' ')}`,
      '',
      String(record.answer ?? ''),
      '',
    ];
    return { name: `${isoDay(record.createdAt)}-${slug(record.question) || 'entry'}-${String(record.id)}.md`, text: lines.join('\n') };
  },
};

const brainNoteMarkdown: MarkdownSpec = {
  dir: 'brain',
  render(record) {
    const title = String(record.title ?? '');
    const lines = [
      '---',
      `id: ${String(record.id)}`,
      `title: ${JSON.stringify(title)}`,
      `folderId: ${record.folderId ? String(record.folderId) : ''}`,
      `createdAt: ${String(record.createdAt)}`,
      `updatedAt: ${String(record.updatedAt)}`,
      '---',
      '',
      `# ${title.replace(/\r?\n/g, ' ')}`,
      '',
      String(record.content ?? ''),
      '',
    ];
    return { name: `${slug(title) || 'note'}-${String(record.id)}.md`, text: lines.join('\n') };
  },
};

/**
 * Keyed by MikroORM entity class name. Entities of modules this build does not have are skipped, so
 * entries may name entities of branches not merged yet (agenda feeds, gamification, Brain, OAuth,
 * imports). Domain order here is the key order of data.json. */
export const EXPORT_REGISTRY: Record<string, RegistryEntry> = {
  // account
  User: { domain: 'account', collection: 'user', omit: ['passwordHash'] },
  UserSettings: { domain: 'account', collection: 'settings' },
  // planning
  Week: { domain: 'planning', collection: 'weeks' },
  Day: { domain: 'planning', collection: 'days' },
  ChecklistItem: { domain: 'planning', collection: 'checklistItems' },
  PerimeterTask: { domain: 'planning', collection: 'perimeterTasks' },
  DayPerimeterTask: { domain: 'planning', collection: 'dayPerimeterTasks' },
  // agenda (the calendar feed; its token is stored only as a hash and not exported)
  AgendaFeed: { domain: 'agenda', collection: 'feeds', omit: ['tokenHash'] },
  // tasks
  TaskCategory: { domain: 'tasks', collection: 'categories' },
  Task: { domain: 'tasks', collection: 'tasks', csv: 'tasks.csv' },
  // training
  Exercise: { domain: 'training', collection: 'exercises' },
  ExerciseSetting: { domain: 'training', collection: 'exerciseSettings' },
  TrainingSession: { domain: 'training', collection: 'sessions' },
  TrainingExercise: { domain: 'training', collection: 'sessionExercises' },
  TrainingSet: { domain: 'training', collection: 'sets', csv: 'training-sets.csv' },
  MobilitySession: { domain: 'training', collection: 'mobilitySessions' },
  CardioSession: { domain: 'training', collection: 'cardioSessions' },
  // wellness
  WaterIntake: { domain: 'wellness', collection: 'water', csv: 'water.csv' },
  StepsEntry: { domain: 'wellness', collection: 'steps' },
  MeditationSession: { domain: 'wellness', collection: 'meditation' },
  MoodEntry: { domain: 'wellness', collection: 'mood', csv: 'mood.csv' },
  SleepEntry: { domain: 'wellness', collection: 'sleep', csv: 'sleep.csv' },
  // body
  BodyMeasurement: { domain: 'body', collection: 'measurements', csv: 'measurements.csv' },
  ProgressPhoto: { domain: 'body', collection: 'progressPhotos' },
  // nutrition
  MealTemplate: { domain: 'nutrition', collection: 'mealTemplates' },
  DinnerPlan: { domain: 'nutrition', collection: 'dinnerPlans' },
  GroceryList: { domain: 'nutrition', collection: 'groceryLists' },
  GroceryItem: { domain: 'nutrition', collection: 'groceryItems' },
  // journal
  JournalQuestion: { domain: 'journal', collection: 'questions' },
  JournalEntry: { domain: 'journal', collection: 'entries', markdown: journalMarkdown },
  // brain (notes also as Markdown under brain/)
  BrainFolder: { domain: 'brain', collection: 'folders' },
  BrainTag: { domain: 'brain', collection: 'tags' },
  BrainNote: { domain: 'brain', collection: 'notes', markdown: brainNoteMarkdown },
  BrainCanvas: { domain: 'brain', collection: 'canvases' },
  BrainDatabase: { domain: 'brain', collection: 'databases' },
  BrainRecord: { domain: 'brain', collection: 'records', omit: ['respondentIpHash', 'respondentUserId', 'respondentKey'] },
  BrainForm: { domain: 'brain', collection: 'forms', omit: ['accessPasswordHash'] },
  // reading
  Book: { domain: 'reading', collection: 'books' },
  ReadingSession: { domain: 'reading', collection: 'sessions', csv: 'reading-sessions.csv' },
  // habits (issue 37): definitions, entries (also as a spreadsheet), SKIP/REST marks
  Habit: { domain: 'habits', collection: 'habits' },
  HabitEntry: { domain: 'habits', collection: 'entries', csv: 'habit-entries.csv' },
  HabitDayMarkRecord: { domain: 'habits', collection: 'marks' },
  // social
  Person: { domain: 'social', collection: 'people' },
  SocialHappening: { domain: 'social', collection: 'happenings' },
  // projects
  Tag: { domain: 'projects', collection: 'tags' },
  Project: { domain: 'projects', collection: 'projects' },
  BoardColumn: { domain: 'projects', collection: 'columns' },
  Deadline: { domain: 'projects', collection: 'deadlines' },
  ProjectTask: { domain: 'projects', collection: 'tasks' },
  // gamification
  GamificationProfile: { domain: 'gamification', collection: 'profile' },
  XpGrant: { domain: 'gamification', collection: 'xpGrants' },
  UserAchievement: { domain: 'gamification', collection: 'achievements' },
  Purchase: { domain: 'gamification', collection: 'purchases' },
  // finance
  FinanceAccount: { domain: 'finance', collection: 'accounts' },
  FinanceTransaction: { domain: 'finance', collection: 'transactions', csv: 'transactions.csv' },
  // files (the blobs of the originals are under files/ in the zip)
  StoredFile: { domain: 'files', collection: 'files' },
  ImageVariant: { domain: 'files', collection: 'variants' },
  // webhooks
  WebhookEndpoint: { domain: 'webhooks', collection: 'endpoints', omit: ['secretEncrypted'], keep: ['secretPrefix'] },
  WebhookDelivery: { domain: 'webhooks', collection: 'deliveries' },
  WebhookAttempt: { domain: 'webhooks', collection: 'attempts' },
  // reminders and where they are sent (a push subscription's keys are the browser's secrets: left out)
  Reminder: { domain: 'reminders', collection: 'reminders' },
  ReminderDelivery: { domain: 'reminders', collection: 'deliveries' },
  PushSubscription: { domain: 'reminders', collection: 'pushSubscriptions', omit: ['p256dh', 'auth'] },
  NotificationSettings: { domain: 'reminders', collection: 'notificationSettings' },
  // insights (the person-days the nightly job built, and what it found)
  InsightDay: { domain: 'insights', collection: 'days' },
  Insight: { domain: 'insights', collection: 'insights' },
  // apiKeys
  ApiKey: { domain: 'apiKeys', collection: 'keys', omit: ['keyHash'] },
  // connections (assistant connector: which OAuth clients the user allowed)
  OAuthConnection: { domain: 'connections', collection: 'oauth' },
  // imports
  ImportRun: { domain: 'imports', collection: 'runs' },

  // Owned by a user but not exported:
  LoginSession: { excluded: 'sign-in sessions are credentials, not the user\'s data' },
  AuthToken: { excluded: 'single-use mail tokens (only their hashes are stored)' },
  OidcIdentity: { excluded: 'single sign-on links are sign-in credentials of this instance (which account at its identity provider signs in)' },
  TotpCredential: { excluded: 'the authenticator secret is a credential (stored encrypted with a key of this instance)' },
  RecoveryCode: { excluded: 'recovery codes are credentials (only their hashes are stored)' },
  SignInChallenge: { excluded: 'second steps of a sign-in live five minutes' },
  AccountExport: { excluded: 'the export jobs themselves' },
  TrashItem: { excluded: 'the export holds live data: deleted records in the trash are left out (docs/trash.md)' },
  OAuthCode: { excluded: 'OAuth authorization codes are credentials (only their hashes are stored)' },
  OAuthToken: { excluded: 'OAuth access and refresh tokens are credentials (only their hashes are stored)' },
  Passkey: { excluded: 'passkeys are credentials bound to this service\'s RP ID: no other instance could use them' },
  InsightRun: { excluded: 'the nightly insights job\'s bookkeeping (when it last ran), not the user\'s data' },
  WebauthnChallenge: { excluded: 'WebAuthn challenges live five minutes, for one ceremony' },
  IdempotencyKey: { excluded: 'the kept answers of retried writes live 24 h; the records those writes made are exported' },
  UndoToken: { excluded: 'undo offers live 10 minutes, for the app that made the write (docs/undo.md)' },
};

/** Property names that look like a secret: an exported one must be in `omit` or `keep`. */
export const SECRET_LOOKING = /hash|secret|token|password|encrypted|salt/i;
