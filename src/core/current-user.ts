import type { AppContext, Authenticated } from './context.js';
import { UnauthorizedError } from './errors.js';

export function requireAuth(ctx: AppContext): Authenticated {
  if (!ctx.auth) throw new UnauthorizedError();
  return ctx.auth;
}

