import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError } from '../errors.js';

/**
 * Removes one of the user's records in the caller's unit of work (NOT_FOUND, naming `resource`, when it
 * is missing or another person's) and answers it: for a service's small "take it back" delete.
 */
export async function removeOwned<T extends object>(em: EntityManager, entity: new (...args: never[]) => T, userId: string, id: string, resource: string): Promise<T> {
  const record = await em.findOne(entity, { id, userId } as never);
  if (!record) throw new NotFoundError(resource);
  em.remove(record);
  return record as T;
}
