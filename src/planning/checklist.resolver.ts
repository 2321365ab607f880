import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { ChecklistItem } from './checklist-item.entity.js';
import { requiredChecklist } from './checklist-key.js';
import { ChecklistService } from './checklist.service.js';
import { DayIdArgs, ToggleChecklistArgs } from './planning.types.js';
import { Service } from '../core/request-services.js';
import { CachedPerPerson } from '../graphql/cacheable-operation.js';

@Authorized()
@Resolver(() => ChecklistItem)
export class ChecklistResolver {
  @CachedPerPerson()
  @Query(() => [ChecklistItem], { description: 'All checklist items of a day.' })
  checklist(@Args(() => DayIdArgs) args: DayIdArgs, @CurrentUserId() userId: string, @Service(ChecklistService) checklistService: ChecklistService): Promise<ChecklistItem[]> {
    return checklistService.list(userId, args.dayId);
  }

  @Mutation(() => ChecklistItem, { description: 'Toggles a checklist item; `value` is kept when it becomes done.' })
  toggleChecklistItem(
    @Args(() => ToggleChecklistArgs) args: ToggleChecklistArgs,
    @CurrentUserId() userId: string,
    @Service(ChecklistService) checklistService: ChecklistService,
    @Ctx() ctx: AppContext,
  ): Promise<ChecklistItem> {
    // `required` reads the day's mode: the row the toggle locked answers it (issue 36: one statement less).
    return checklistService.toggle(userId, args.dayId, args.key, args.value, {
      expectedVersion: args.expectedVersion,
      onDay: (day) => ctx.loaders.planning.dayById.prime(day.id, day),
    });
  }

  @FieldResolver(() => Boolean, { description: "Whether the day's mode requires this item." })
  async required(@Root() item: ChecklistItem, @Ctx() ctx: AppContext): Promise<boolean> {
    const day = await ctx.loaders.planning.dayById.load(item.dayId);
    return !!day && requiredChecklist(day.minimumMode).includes(item.key);
  }
}
