import { PlanGated } from '../accounts/subscription.js';
import type { User } from '../accounts/user.entity.js';
import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId, CurrentUser } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeyService } from './api-key.service.js';
import { ApiKeyIdArgs, ApiKeyMessage, ApiKeyPage, CreateApiKeyArgs, CreatedApiKey, ListApiKeysArgs } from './api-key.types.js';

function service(ctx: AppContext): ApiKeyService {
  return new ApiKeyService(ctx.em);
}

/** Key management: session cookie only (an API key never authenticates these). */
@Authorized()
@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Query(() => ApiKeyPage, { description: 'The caller\'s API keys, newest first (never the full key).' })
  apiKeys(@Args(() => ListApiKeysArgs) args: ListApiKeysArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<ApiKeyPage> {
    return service(ctx).list(userId, args);
  }

  @Mutation(() => CreatedApiKey, { description: 'Needs a plan with API keys. The full key is returned only here.' })
  @PlanGated('api_keys')
  createApiKey(@Args(() => CreateApiKeyArgs) args: CreateApiKeyArgs, @CurrentUser() user: User, @Ctx() ctx: AppContext): Promise<CreatedApiKey> {
    return service(ctx).create(user, args);
  }

  @Mutation(() => ApiKeyMessage, { description: 'The key stops working at once.' })
  revokeApiKey(@Args(() => ApiKeyIdArgs) args: ApiKeyIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<ApiKeyMessage> {
    return service(ctx).revoke(userId, args.keyId);
  }

  @Mutation(() => CreatedApiKey, { description: 'Revokes the key and returns a new one (shown once) named with a rotated suffix.' })
  @PlanGated('api_keys')
  rotateApiKey(@Args(() => ApiKeyIdArgs) args: ApiKeyIdArgs, @CurrentUser() user: User, @Ctx() ctx: AppContext): Promise<CreatedApiKey> {
    return service(ctx).rotate(user, args.keyId);
  }

  @Mutation(() => Deleted)
  deleteApiKey(@Args(() => ApiKeyIdArgs) args: ApiKeyIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<Deleted> {
    return service(ctx).delete(userId, args.keyId);
  }
}
