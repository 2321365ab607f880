import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { SettingsService } from './settings.service.js';
import { UpdateSettingsArgs } from './settings.types.js';
import { UserSettings } from './user-settings.entity.js';

@Authorized()
@Resolver(() => UserSettings)
export class SettingsResolver {
  @Query(() => UserSettings, { description: 'Week settings: split labels, bedtime targets, time zone.' })
  settings(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<UserSettings> {
    return new SettingsService(ctx.em).get(userId);
  }

  @Mutation(() => UserSettings)
  updateSettings(@Args(() => UpdateSettingsArgs) args: UpdateSettingsArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<UserSettings> {
    return new SettingsService(ctx.em).update(userId, args);
  }
}
