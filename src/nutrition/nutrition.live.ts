import { Args, Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { GroceryList } from './grocery-list.entity.js';
import { mayConcernGroceryList } from './grocery-list-of-change.js';
import { GroceryListService } from './grocery-list.service.js';
import { WeekIdArgs } from './nutrition.types.js';

/** A week's list re-reads for changes of that list, its items, or a list made for that week. */
export const GROCERY_TOPIC = liveTopic('grocery-list', ['GroceryList', 'GroceryItem'], {
  resolve: async (args, em, userId) => (await em.findOne(GroceryList, { userId, weekId: args.weekId as string }, { fields: ['id'] }))?.id ?? null,
  resolvedFrom: ['GroceryList'],
  within: (change, args, listId) => mayConcernGroceryList(change, args.weekId, listId as string | null),
});

/** The live grocery list (issue 27): ticked on the phone in the shop, seen on the laptop. */
@Authorized()
@Resolver()
export class NutritionLiveResolver {
  @Subscription(() => GroceryList, { subscribe: liveTicks(GROCERY_TOPIC), description: "The week's grocery list as `groceryList` answers it, again after each change." })
  groceryListChanged(@Args(() => WeekIdArgs) args: WeekIdArgs, @CurrentUserId() userId: string, @Service(GroceryListService) groceryListService: GroceryListService): Promise<GroceryList> {
    return groceryListService.getForWeek(userId, args.weekId);
  }
}
