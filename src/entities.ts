import { LoginSession } from './accounts/login-session.entity.js';
import { AuthToken } from './accounts/auth-token.entity.js';
import { User } from './accounts/user.entity.js';
import { BaseEntity } from './core/database/base.entity.js';
import { OutboxEvent } from './core/events/outbox-event.entity.js';
import { ChecklistItem } from './planning/checklist-item.entity.js';
import { Day } from './planning/day.entity.js';
import { DayPerimeterTask } from './planning/day-perimeter-task.entity.js';
import { PerimeterTask } from './planning/perimeter-task.entity.js';
import { Week } from './planning/week.entity.js';
import { UserSettings } from './settings/user-settings.entity.js';
import { Task } from './tasks/task.entity.js';
import { TaskCategory } from './tasks/task-category.entity.js';

/** Every MikroORM entity; a new domain module adds its entities here. */
export const entities = [
  BaseEntity,
  User,
  LoginSession,
  AuthToken,
  OutboxEvent,
  UserSettings,
  Week,
  Day,
  ChecklistItem,
  PerimeterTask,
  DayPerimeterTask,
  TaskCategory,
  Task,
];
