import type { RouteTable } from './route-table.js';

/**
 * The Session API (`/api/v1`): each route of the spec mapped to its GraphQL operation. Bodies are the
 * operation's flat arguments; path parameters are arguments of the same name.
 */
export const sessionRoutes: RouteTable = {
  // Accounts
  'Mutation.register': { method: 'POST', path: '/auth/register', responseStatus: 201 },
  'Mutation.login': { method: 'POST', path: '/auth/login' },
  'Mutation.logout': { method: 'POST', path: '/auth/logout' },
  'Query.me': { method: 'GET', path: '/auth/me' },
  'Mutation.requestPasswordReset': { method: 'POST', path: '/auth/request-password-reset' },
  'Mutation.resetPassword': { method: 'POST', path: '/auth/reset-password' },
  'Mutation.changePassword': { method: 'POST', path: '/auth/change-password' },
  'Mutation.verifyEmail': { method: 'POST', path: '/auth/verify-email' },
  'Mutation.resendVerification': { method: 'POST', path: '/auth/resend-verification' },

  // Planning: weeks, days, checklist, perimeter
  'Mutation.generateWeek': { method: 'POST', path: '/weeks/generate', responseStatus: 201 },
  'Query.week': { method: 'GET', path: '/weeks/:startDate' },
  'Mutation.updateWeek': { method: 'PATCH', path: '/weeks/:weekId' },
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
};
