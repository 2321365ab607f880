import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { requireAuth } from '../core/current-user.js';
import { SettingsService } from './settings.service.js';
import { UpdateSettingsArgs } from './settings.types.js';
import { UserSettings } from './user-settings.entity.js';

@Resolver(() => UserSettings)
export class SettingsResolver {
  @Query(() => UserSettings, { description: 'Week settings: split labels, bedtime targets, time zone.' })
  settings(@Ctx() ctx: AppContext): Promise<UserSettings> {
    return new SettingsService(ctx.em).get(requireAuth(ctx).user.id);
  }

  @Mutation(() => UserSettings)
  updateSettings(@Args(() => UpdateSettingsArgs) args: UpdateSettingsArgs, @Ctx() ctx: AppContext): Promise<UserSettings> {
    return new SettingsService(ctx.em).update(requireAuth(ctx).user.id, args);
  }
}
