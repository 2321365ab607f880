import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { GroceryItem, GroceryList } from './grocery-list.entity.js';
import { GroceryListService } from './grocery-list.service.js';
import { AddGroceryItemArgs, UpdateGroceryItemArgs, WeekIdArgs } from './nutrition.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => GroceryList)
export class GroceryListResolver {
  @Query(() => GroceryList, { description: "The week's grocery list (404 before it is generated)." })
  groceryList(@Args(() => WeekIdArgs) args: WeekIdArgs, @CurrentUserId() userId: string, @Service(GroceryListService) groceryListService: GroceryListService): Promise<GroceryList> {
    return groceryListService.getForWeek(userId, args.weekId);
  }

  @Mutation(() => GroceryList, { description: "Makes the week's list from its cook days' meals (201), or refreshes it (200)." })
  async generateGroceryList(@Args(() => WeekIdArgs) args: WeekIdArgs, @CurrentUserId() userId: string, @Service(GroceryListService) groceryListService: GroceryListService, @Ctx() ctx: AppContext): Promise<GroceryList> {
    const { list, created } = await groceryListService.generate(userId, args.weekId);
    if (!created) ctx.http.setStatus(200);
    return list;
  }

  @Mutation(() => GroceryItem)
  updateGroceryItem(@Args(() => UpdateGroceryItemArgs) args: UpdateGroceryItemArgs, @CurrentUserId() userId: string, @Service(GroceryListService) groceryListService: GroceryListService): Promise<GroceryItem> {
    return groceryListService.setPurchased(userId, args.groceryListId, args.itemId, args.purchased);
  }

  @Mutation(() => GroceryItem, { description: 'Adds a manual item (kept when the list is refreshed).' })
  addGroceryItem(@Args(() => AddGroceryItemArgs) args: AddGroceryItemArgs, @CurrentUserId() userId: string, @Service(GroceryListService) groceryListService: GroceryListService): Promise<GroceryItem> {
    const { groceryListId, ...item } = args;
    return groceryListService.addItem(userId, groceryListId, item);
  }

  @FieldResolver(() => [GroceryItem], { description: 'Grouped by section (items without one last), then by name.' })
  items(@Root() list: GroceryList, @Ctx() ctx: AppContext): Promise<GroceryItem[]> {
    return ctx.loaders.nutrition.itemsByGroceryListId.load(list.id);
  }
}
