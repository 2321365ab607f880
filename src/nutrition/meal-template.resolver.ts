import type { User } from '../accounts/user.entity.js';
import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUser } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { PageArgs } from '../core/pagination.js';
import { MealTemplate } from './meal-template.entity.js';
import { MealTemplateService } from './meal-template.service.js';
import { CreateMealTemplateArgs, MealTemplateIdArgs, MealTemplatePage, UpdateMealTemplateArgs } from './nutrition.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => MealTemplate)
export class MealTemplateResolver {
  @Query(() => MealTemplatePage, { description: 'Your meal templates, oldest first.' })
  async mealTemplates(@Args(() => PageArgs) args: PageArgs, @CurrentUser() user: User, @Service(MealTemplateService) mealTemplateService: MealTemplateService): Promise<MealTemplatePage> {
    return mealTemplateService.list(user.id, args);
  }

  @Query(() => MealTemplate)
  async mealTemplate(@Args(() => MealTemplateIdArgs) args: MealTemplateIdArgs, @CurrentUser() user: User, @Service(MealTemplateService) mealTemplateService: MealTemplateService): Promise<MealTemplate> {
    return mealTemplateService.get(user.id, args.mealTemplateId);
  }

  @Mutation(() => MealTemplate, { description: '`imageFileId` must be an image file of yours.' })
  async createMealTemplate(@Args(() => CreateMealTemplateArgs) args: CreateMealTemplateArgs, @CurrentUser() user: User, @Service(MealTemplateService) mealTemplateService: MealTemplateService): Promise<MealTemplate> {
    return mealTemplateService.create(user.id, args);
  }

  @Mutation(() => MealTemplate, { description: '`ingredients` replaces every ingredient; null clears instructions, imageFileId, servings.' })
  async updateMealTemplate(@Args(() => UpdateMealTemplateArgs) args: UpdateMealTemplateArgs, @CurrentUser() user: User, @Service(MealTemplateService) mealTemplateService: MealTemplateService): Promise<MealTemplate> {
    const { mealTemplateId, ...changes } = args;
    return mealTemplateService.update(user.id, mealTemplateId, changes);
  }

  @Mutation(() => Deleted, { description: 'Dinner plans that used it keep their day with no meal.' })
  async deleteMealTemplate(@Args(() => MealTemplateIdArgs) args: MealTemplateIdArgs, @CurrentUser() user: User, @Service(MealTemplateService) mealTemplateService: MealTemplateService): Promise<Deleted> {
    return mealTemplateService.delete(user.id, args.mealTemplateId);
  }
}
