import type { EntityClass, FilterQuery, QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pageWindow, toPage, type Page, type PageArgs } from '../pagination.js';

export interface FindPageOptions {
  /**
   * Count before reading the rows: cheaper for a page that is likely past the end (a live page whose
   * last answer was empty), dearer for a last page with rows. The answer is the same either way.
   */
  countFirst?: boolean;
}

/**
 * One page of a list (operations.md: `page` from 1, `limit` 50 by default and at most 100) with its
 * total. A page that is not full is the last one, so it gives the total itself; only a full page (or
 * an empty page past the first) costs a count.
 */
export async function findPage<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  where: FilterQuery<T>,
  orderBy: QueryOrderMap<T>,
  args: PageArgs,
  options: FindPageOptions = {},
): Promise<Page<T>> {
  const window = pageWindow(args);
  if (options.countFirst && window.offset > 0) {
    // Past the end the answer is the empty page and its total: one COUNT, the rows only when they exist.
    const total = await em.count(entity, where);
    if (total <= window.offset) return toPage([], total, window);
    return toPage((await em.find(entity, where, { orderBy: orderBy as never, limit: window.limit, offset: window.offset })) as T[], total, window);
  }
  const items = (await em.find(entity, where, { orderBy: orderBy as never, limit: window.limit, offset: window.offset })) as T[];
  const isLast = items.length < window.limit && (items.length > 0 || window.offset === 0);
  const total = isLast ? window.offset + items.length : await em.count(entity, where);
  return toPage(items, total, window);
}
