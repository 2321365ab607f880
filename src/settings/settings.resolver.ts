import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { SettingsService } from './settings.service.js';
import { UpdateSettingsArgs } from './settings.types.js';
import { UserSettings } from './user-settings.entity.js';
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => UserSettings)
export class SettingsResolver {
  @CachedPerPerson()
  @Query(() => UserSettings, { description: 'Week settings: split labels, bedtime targets, time zone.' })
  settings(@CurrentUserId() userId: string, @Service(SettingsService) settingsService: SettingsService): Promise<UserSettings> {
    return settingsService.get(userId);
  }

  @Mutation(() => UserSettings)
  updateSettings(@Args(() => UpdateSettingsArgs) args: UpdateSettingsArgs, @CurrentUserId() userId: string, @Service(SettingsService) settingsService: SettingsService): Promise<UserSettings> {
    return settingsService.update(userId, args);
  }
}
