import { Args, Authorized, Resolver, Subscription } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { liveTicks, liveTopic } from '../core/live/live-ticks.js';
import { Service } from '../core/request-services.js';
import { GroceryList } from './grocery-list.entity.js';
import { GroceryListService } from './grocery-list.service.js';
import { WeekIdArgs } from './nutrition.types.js';

export const GROCERY_TOPIC = liveTopic('grocery-list', ['GroceryList', 'GroceryItem']);

/** The live grocery list (issue 27): ticked on the phone in the shop, seen on the laptop. */
@Authorized()
@Resolver()
export class NutritionLiveResolver {
  @Subscription(() => GroceryList, { subscribe: liveTicks(GROCERY_TOPIC), description: "The week's grocery list as `groceryList` answers it, again after each change." })
  groceryListChanged(@Args(() => WeekIdArgs) args: WeekIdArgs, @CurrentUserId() userId: string, @Service(GroceryListService) groceryListService: GroceryListService): Promise<GroceryList> {
    return groceryListService.getForWeek(userId, args.weekId);
  }
}
