import type { NonEmptyArray } from 'type-graphql';
import { AuthResolver } from './accounts/auth.resolver.js';
import { ChecklistResolver } from './planning/checklist.resolver.js';
import { DayResolver } from './planning/day.resolver.js';
import { PerimeterResolver } from './planning/perimeter.resolver.js';
import { WeekResolver } from './planning/week.resolver.js';
import { SettingsResolver } from './settings/settings.resolver.js';
import { DayTasksResolver } from './tasks/day-tasks.resolver.js';
import { TaskCategoryResolver } from './tasks/task-category.resolver.js';
import { TaskResolver } from './tasks/task.resolver.js';

/** Every GraphQL resolver class; a new domain module adds its resolvers here. */
export const resolvers: NonEmptyArray<Function> = [
  AuthResolver,
  SettingsResolver,
  WeekResolver,
  DayResolver,
  ChecklistResolver,
  PerimeterResolver,
  TaskResolver,
  TaskCategoryResolver,
  DayTasksResolver,
];
