import type { EntityManager } from '@mikro-orm/postgresql';
import { MealTemplate } from '../../nutrition/meal-template.entity.js';
import { Person } from '../../social/person.entity.js';
import { Task } from '../../tasks/task.entity.js';

/**
 * The reads of the reminder kinds that no domain service offers: people and meal templates (PersonService
 * and MealTemplateService are made with the files runtime, for pictures, and a kind runs in the scanner
 * with an entity manager only) and a series' task on a date. Each is one statement scoped by owner and
 * bounded by the ids given.
 */

/** The user's person (name and birthday), or null when missing or another user's. */
export async function personOf(em: EntityManager, userId: string, personId: string): Promise<Pick<Person, 'id' | 'name' | 'birthday'> | null> {
  return em.findOne(Person, { id: personId, userId });
}

/** The names of the user's people among `ids` (at most `limit`), by name. */
export async function peopleNames(em: EntityManager, userId: string, ids: readonly string[], limit: number): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await em.find(Person, { id: { $in: [...ids] }, userId }, { orderBy: { name: 'asc', id: 'asc' }, limit });
  return rows.map((p) => p.name);
}

/** The name of the user's meal template, or null. */
export async function mealTemplateName(em: EntityManager, userId: string, templateId: string): Promise<string | null> {
  const template = await em.findOne(MealTemplate, { id: templateId, userId });
  return template?.name ?? null;
}

/** The task a series (its first task `seriesId`) has on `date`, when it has been made already. */
export async function seriesTaskOn(em: EntityManager, userId: string, seriesId: string, date: string): Promise<Task | null> {
  return em.findOne(Task, { userId, seriesId, occurrenceDate: date });
}
