import type { EntityManager } from '@mikro-orm/postgresql';
import { createPlanningLoaders } from '../planning/planning.loaders.js';
import { createSettingsLoaders } from '../settings/settings.loaders.js';
import { createTasksLoaders, TASKS_DAY_FIELDS } from '../tasks/tasks.loaders.js';
import { BODY_DAY_FIELDS, createBodyLoaders } from '../body/body.loaders.js';
import { createTrainingLoaders, TRAINING_DAY_FIELDS } from '../training/training.loaders.js';
import { createWellnessLoaders, WELLNESS_DAY_FIELDS } from '../wellness/wellness.loaders.js';
import { createWebhooksLoaders } from '../webhooks/webhooks.loaders.js';
import { createFilesLoaders } from '../files/files.loaders.js';
import { createNutritionLoaders, NUTRITION_DAY_FIELDS } from '../nutrition/nutrition.loaders.js';
import { createJournalLoaders, JOURNAL_DAY_FIELDS } from '../journal/journal.loaders.js';
import { createReadingLoaders, READING_DAY_FIELDS } from '../reading/reading.loaders.js';
import { createProjectsLoaders } from '../projects/projects.loaders.js';
import { createSocialLoaders, SOCIAL_DAY_FIELDS } from '../social/social.loaders.js';
import { createHabitsLoaders, HABITS_DAY_FIELDS } from '../habits/habits.loaders.js';
import type { DayFieldSources } from '../planning/day-fields.js';
import { PLANNING_DAY_FIELDS } from '../planning/day-fields.js';
import { followDayFields } from '../planning/planning.live.js';

/**
 * Every field of `Day` with the records it reads, as each domain declares it beside its loaders: the
 * day and week subscriptions follow them all (a new Day field adds its domain's line here;
 * src/live/day-fields.test.ts fails for a field of the schema that is missing).
 */
export const DAY_FIELD_SOURCES: DayFieldSources = {
  ...PLANNING_DAY_FIELDS,
  ...TASKS_DAY_FIELDS,
  ...BODY_DAY_FIELDS,
  ...TRAINING_DAY_FIELDS,
  ...WELLNESS_DAY_FIELDS,
  ...NUTRITION_DAY_FIELDS,
  ...JOURNAL_DAY_FIELDS,
  ...READING_DAY_FIELDS,
  ...SOCIAL_DAY_FIELDS,
  ...HABITS_DAY_FIELDS,
};
followDayFields(DAY_FIELD_SOURCES);

/** Memoises a factory so each domain's loaders are made on first use within the request. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/**
 * Per-request dataloaders of every domain, made on first use so a request pays only for what it
 * reads. A new domain module adds its factory here.
 */
export function createLoaders(em: EntityManager, clock: () => Date = () => new Date()) {
  const planning = lazy(() => createPlanningLoaders(em));
  const settings = lazy(() => createSettingsLoaders(em));
  const tasks = lazy(() => createTasksLoaders(em));
  const training = lazy(() => createTrainingLoaders(em));
  const wellness = lazy(() => createWellnessLoaders(em));
  const body = lazy(() => createBodyLoaders(em));
  const webhooks = lazy(() => createWebhooksLoaders(em));
  const files = lazy(() => createFilesLoaders(em));
  const nutrition = lazy(() => createNutritionLoaders(em));
  const journal = lazy(() => createJournalLoaders(em));
  const reading = lazy(() => createReadingLoaders(em));
  const projects = lazy(() => createProjectsLoaders(em));
  const social = lazy(() => createSocialLoaders(em));
  const habits = lazy(() => createHabitsLoaders(em, async (userId) => (await settings().byUserId.load(userId)).timezone, clock));
  return {
    get planning() {
      return planning();
    },
    get settings() {
      return settings();
    },
    get tasks() {
      return tasks();
    },
    get training() {
      return training();
    },
    get wellness() {
      return wellness();
    },
    get body() {
      return body();
    },
    get webhooks() {
      return webhooks();
    },
    get files() {
      return files();
    },
    get nutrition() {
      return nutrition();
    },
    get journal() {
      return journal();
    },
    get reading() {
      return reading();
    },
    get projects() {
      return projects();
    },
    get social() {
      return social();
    },
    get habits() {
      return habits();
    },
  };
}


type AppLoaders = ReturnType<typeof createLoaders>;

declare module '../core/context.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the loaders of every domain, added here
  interface Loaders extends AppLoaders {}
}
