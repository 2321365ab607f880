import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../../core/current-user.js';
import { Deleted } from '../../core/deleted.js';
import { OAuthConnection } from '../oauth/oauth-connection.entity.js';
import { CONNECTIONS_SHOWN, ConnectionService } from './connection.service.js';
import { ConnectionIdArgs, NarrowConnectionArgs } from './connection.types.js';
import { Service } from '../../core/request-services.js';

/** The assistants connected through the OAuth flow (session cookie only). */
@Authorized()
@Resolver(() => OAuthConnection)
export class ConnectionResolver {
  @Query(() => [OAuthConnection], { description: `Assistants connected to the account (active connections, newest first; the ${CONNECTIONS_SHOWN} newest).` })
  connections(@CurrentUserId() userId: string, @Service(ConnectionService) connectionService: ConnectionService): Promise<OAuthConnection[]> {
    return connectionService.list(userId);
  }

  @Mutation(() => OAuthConnection, { description: "Narrows what a connected assistant may do (scopes it holds now only); takes effect on its next call." })
  narrowConnection(@Args(() => NarrowConnectionArgs) args: NarrowConnectionArgs, @CurrentUserId() userId: string, @Service(ConnectionService) connectionService: ConnectionService): Promise<OAuthConnection> {
    return connectionService.narrow(userId, args.connectionId, args.scopes);
  }

  @Mutation(() => Deleted, { description: "Revokes a connection: every token of the assistant stops working at once." })
  revokeConnection(@Args(() => ConnectionIdArgs) args: ConnectionIdArgs, @CurrentUserId() userId: string, @Service(ConnectionService) connectionService: ConnectionService): Promise<Deleted> {
    return connectionService.revoke(userId, args.connectionId);
  }
}
