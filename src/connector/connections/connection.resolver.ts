import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../core/context.js';
import { CurrentUserId } from '../../core/current-user.js';
import { Deleted } from '../../core/deleted.js';
import { OAuthConnection } from '../oauth/oauth-connection.entity.js';
import { CONNECTIONS_SHOWN, ConnectionService } from './connection.service.js';
import { ConnectionIdArgs } from './connection.types.js';

/** The assistants connected through the OAuth flow (session cookie only). */
@Authorized()
@Resolver(() => OAuthConnection)
export class ConnectionResolver {
  @Query(() => [OAuthConnection], { description: `Assistants connected to the account (active connections, newest first; the ${CONNECTIONS_SHOWN} newest).` })
  connections(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<OAuthConnection[]> {
    return new ConnectionService(ctx.em).list(userId);
  }

  @Mutation(() => Deleted, { description: "Revokes a connection: every token of the assistant stops working at once." })
  revokeConnection(@Args(() => ConnectionIdArgs) args: ConnectionIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Deleted> {
    return new ConnectionService(ctx.em).revoke(userId, args.connectionId);
  }
}
