import { ownerRecordIds } from '../core/live/change-collector.js';
import type { LiveChange } from '../core/live/live-change.js';

/** The grocery lists a changed record belongs to (`LiveChange.scope.groceryList`): the list itself, or an item's `listId`. */
export const groceryListsOfChange = ownerRecordIds('GroceryList', 'listId');

/**
 * Whether a change can concern the grocery list of week `weekId`, whose list is `listId` (null: none
 * yet): a list of that week (`scope.week`), an item of that list, or a change that names neither.
 */
export function mayConcernGroceryList(change: LiveChange, weekId: unknown, listId: string | null): boolean {
  const weeks = change.scope?.week;
  const lists = change.scope?.groceryList;
  if (typeof weekId !== 'string' || (weeks === undefined && lists === undefined)) return true;
  return weeks?.includes(weekId) === true || (listId !== null && lists?.includes(listId) === true);
}
