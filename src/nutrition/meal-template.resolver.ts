import type { User } from '../accounts/user.entity.js';
import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUser } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { PageArgs } from '../core/pagination.js';
import { FileService } from '../files/file.service.js';
import { filesRuntime } from '../files/files-runtime.js';
import { MealTemplate } from './meal-template.entity.js';
import { MealTemplateService } from './meal-template.service.js';
import { CreateMealTemplateArgs, MealTemplateIdArgs, MealTemplatePage, UpdateMealTemplateArgs } from './nutrition.types.js';

async function service(ctx: AppContext): Promise<MealTemplateService> {
  return new MealTemplateService(ctx.em, new FileService(ctx.em, await filesRuntime(ctx.deps)));
}

@Authorized()
@Resolver(() => MealTemplate)
export class MealTemplateResolver {
  @Query(() => MealTemplatePage, { description: 'Your meal templates, oldest first.' })
  async mealTemplates(@Args(() => PageArgs) args: PageArgs, @CurrentUser() user: User, @Ctx() ctx: AppContext): Promise<MealTemplatePage> {
    return (await service(ctx)).list(user.id, args);
  }

  @Query(() => MealTemplate)
  async mealTemplate(@Args(() => MealTemplateIdArgs) args: MealTemplateIdArgs, @CurrentUser() user: User, @Ctx() ctx: AppContext): Promise<MealTemplate> {
    return (await service(ctx)).get(user.id, args.mealTemplateId);
  }

  @Mutation(() => MealTemplate, { description: '`imageFileId` must be an image file of yours.' })
  async createMealTemplate(@Args(() => CreateMealTemplateArgs) args: CreateMealTemplateArgs, @CurrentUser() user: User, @Ctx() ctx: AppContext): Promise<MealTemplate> {
    return (await service(ctx)).create(user.id, args);
  }

  @Mutation(() => MealTemplate, { description: '`ingredients` replaces every ingredient; null clears instructions, imageFileId, servings.' })
  async updateMealTemplate(@Args(() => UpdateMealTemplateArgs) args: UpdateMealTemplateArgs, @CurrentUser() user: User, @Ctx() ctx: AppContext): Promise<MealTemplate> {
    const { mealTemplateId, ...changes } = args;
    return (await service(ctx)).update(user.id, mealTemplateId, changes);
  }

  @Mutation(() => Deleted, { description: 'Dinner plans that used it keep their day with no meal.' })
  async deleteMealTemplate(@Args(() => MealTemplateIdArgs) args: MealTemplateIdArgs, @CurrentUser() user: User, @Ctx() ctx: AppContext): Promise<Deleted> {
    return (await service(ctx)).delete(user.id, args.mealTemplateId);
  }
}
