import { PlanGated } from '../accounts/subscription.js';
import type { User } from '../accounts/user.entity.js';
import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUserId, CurrentUser } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { ApiKey } from './api-key.entity.js';
import { ApiKeyService } from './api-key.service.js';
import { ApiKeyIdArgs, ApiKeyMessage, ApiKeyPage, CreateApiKeyArgs, CreatedApiKey, ListApiKeysArgs } from './api-key.types.js';
import { Service } from '../core/request-services.js';

/** Key management: session cookie only (an API key never authenticates these). */
@Authorized()
@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Query(() => ApiKeyPage, { description: 'The caller\'s API keys, newest first (never the full key).' })
  apiKeys(@Args(() => ListApiKeysArgs) args: ListApiKeysArgs, @CurrentUserId() userId: string, @Service(ApiKeyService) apiKeyService: ApiKeyService): Promise<ApiKeyPage> {
    return apiKeyService.list(userId, args);
  }

  @Mutation(() => CreatedApiKey, { description: 'Needs a plan with API keys. The full key is returned only here.' })
  @PlanGated('api_keys')
  createApiKey(@Args(() => CreateApiKeyArgs) args: CreateApiKeyArgs, @CurrentUser() user: User, @Service(ApiKeyService) apiKeyService: ApiKeyService): Promise<CreatedApiKey> {
    return apiKeyService.create(user, args);
  }

  @Mutation(() => ApiKeyMessage, { description: 'The key stops working at once.' })
  revokeApiKey(@Args(() => ApiKeyIdArgs) args: ApiKeyIdArgs, @CurrentUserId() userId: string, @Service(ApiKeyService) apiKeyService: ApiKeyService): Promise<ApiKeyMessage> {
    return apiKeyService.revoke(userId, args.keyId);
  }

  @Mutation(() => CreatedApiKey, { description: 'Revokes the key and returns a new one (shown once) named with a rotated suffix.' })
  @PlanGated('api_keys')
  rotateApiKey(@Args(() => ApiKeyIdArgs) args: ApiKeyIdArgs, @CurrentUser() user: User, @Service(ApiKeyService) apiKeyService: ApiKeyService): Promise<CreatedApiKey> {
    return apiKeyService.rotate(user, args.keyId);
  }

  @Mutation(() => Deleted)
  deleteApiKey(@Args(() => ApiKeyIdArgs) args: ApiKeyIdArgs, @CurrentUserId() userId: string, @Service(ApiKeyService) apiKeyService: ApiKeyService): Promise<Deleted> {
    return apiKeyService.delete(userId, args.keyId);
  }
}
