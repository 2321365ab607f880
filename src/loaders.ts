import type { EntityManager } from '@mikro-orm/postgresql';
import { createPlanningLoaders } from './planning/planning.loaders.js';
import { createSettingsLoaders } from './settings/settings.loaders.js';
import { createTasksLoaders } from './tasks/tasks.loaders.js';

/** Memoises a factory so each domain's loaders are made on first use within the request. */
function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/**
 * Per-request dataloaders of every domain, made on first use so a request pays only for what it
 * reads. A new domain module adds its factory here.
 */
export function createLoaders(em: EntityManager) {
  const planning = lazy(() => createPlanningLoaders(em));
  const settings = lazy(() => createSettingsLoaders(em));
  const tasks = lazy(() => createTasksLoaders(em));
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
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
