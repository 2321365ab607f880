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
};
