import type { Ingredient } from './meal-template.entity.js';

export interface MergedItem {
  key: string;
  name: string;
  quantity: number | null;
  unit: string;
  section: string;
}

/** Items are the same when name and unit match, both trimmed and in any case. */
export function itemKey(name: string, unit: string): string {
  return `${name.trim().toLowerCase()}\u0000${unit.trim().toLowerCase()}`;
}

/**
 * One batch of each template's ingredients merged by name and unit, quantities added (an ingredient
 * without a quantity adds nothing; null only when none has one). The first spelling and the first
 * non-empty section win. Different units stay apart: 200 g and 1 pcs of onion are two items.
 */
export function mergeIngredients(batches: Ingredient[][]): MergedItem[] {
  const merged = new Map<string, MergedItem>();
  for (const ingredient of batches.flat()) {
    const key = itemKey(ingredient.name, ingredient.unit);
    const item = merged.get(key);
    if (!item) {
      merged.set(key, { key, name: ingredient.name, quantity: ingredient.quantity, unit: ingredient.unit, section: ingredient.section });
      continue;
    }
    if (ingredient.quantity !== null) item.quantity = (item.quantity ?? 0) + ingredient.quantity;
    if (!item.section) item.section = ingredient.section;
  }
  return [...merged.values()];
}

const SOURCE_ORDER = ['plan', 'carried', 'manual'];

interface Sortable {
  section: string;
  name: string;
  unit: string;
  source: string;
}

/** Grouped by section (any case; items without a section last), then by name, unit and source. */
export function compareGroceryItems(a: Sortable, b: Sortable): number {
  if (!a.section !== !b.section) return a.section ? -1 : 1;
  const lower = (x: string, y: string) => x.toLowerCase().localeCompare(y.toLowerCase());
  return (
    lower(a.section, b.section) || lower(a.name, b.name) || lower(a.unit, b.unit) || SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source)
  );
}
