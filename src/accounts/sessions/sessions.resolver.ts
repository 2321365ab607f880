import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext, Authenticated } from '../../core/context.js';
import { CurrentSession } from '../../core/current-user.js';
import { Deleted } from '../../core/deleted.js';
import { Service } from '../../core/request-services.js';
import { SESSION_COOKIE } from '../session-token.js';
import { SESSIONS_SHOWN, SessionsService } from './sessions.service.js';
import { AccountSession, RevokedSessions, SessionIdArgs } from './sessions.types.js';

/** The person's signed-in browsers and devices (session cookie only). */
@Authorized()
@Resolver()
export class SessionsResolver {
  @Query(() => [AccountSession], { description: `The signed-in sessions of the account, newest first (the ${SESSIONS_SHOWN} newest); \`current\` marks this one.` })
  sessions(@CurrentSession() auth: Authenticated, @Service(SessionsService) sessions: SessionsService): Promise<AccountSession[]> {
    return sessions.list(auth.user.id, auth.sessionId);
  }

  @Mutation(() => Deleted, { description: 'Ends one session: its cookie is refused from the next request. Ending the current one signs out.' })
  async revokeSession(@Args(() => SessionIdArgs) args: SessionIdArgs, @CurrentSession() auth: Authenticated, @Service(SessionsService) sessions: SessionsService, @Ctx() ctx: AppContext): Promise<Deleted> {
    const result = await sessions.revoke(auth.user.id, args.sessionId);
    if (args.sessionId === auth.sessionId) ctx.http.clearCookie(SESSION_COOKIE);
    return result;
  }

  @Mutation(() => RevokedSessions, { description: 'Ends every session of the account but this one.' })
  async revokeOtherSessions(@CurrentSession() auth: Authenticated, @Service(SessionsService) sessions: SessionsService): Promise<RevokedSessions> {
    const revoked = await sessions.revokeOthers(auth.user.id, auth.sessionId);
    return { revoked, message: revoked === 1 ? '1 other session ended' : `${revoked} other sessions ended` };
  }
}
