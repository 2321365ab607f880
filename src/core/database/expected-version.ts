import { LockMode, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, VersionConflictError } from '../errors.js';
import type { VersionedEntity } from './versioned.entity.js';

/** The record a versioned write is about: its class, how the owner's row is found, its name in a 404. */
export interface VersionedTarget<E extends VersionedEntity> {
  entity: EntityName<E>;
  where: FilterQuery<E>;
  resource: string;
  /** The record as its API answers it, when that is not its entity's GraphQL fields (a Brain record's view). */
  view?: (record: E) => object;
}

/**
 * The one check of `expectedVersion` every update service runs its write through (GraphQL, REST's
 * If-Match, the Public API and the connector reach it the same way). Without a version the write runs
 * as it always did, on `em`. With one, the owner's row is locked (`select … for update`) in a
 * transaction, compared, and the write runs on that transaction: a second writer with the same version
 * waits for the lock, then reads the bumped version and is refused, so exactly one of them wins.
 * Another person's row is a 404 like a missing one; a newer version a VERSION_CONFLICT carrying it.
 */
export async function withExpectedVersion<E extends VersionedEntity, T>(
  em: EntityManager,
  target: VersionedTarget<E>,
  expectedVersion: number | null | undefined,
  write: (em: EntityManager) => Promise<T>,
): Promise<T> {
  if (expectedVersion == null) return write(em);
  return em.transactional(async (tx) => {
    const current = await tx.findOne(target.entity, target.where, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!current) throw new NotFoundError(target.resource);
    requireVersion(current, expectedVersion, target.resource, target.view?.(current));
    return write(tx);
  });
}

/**
 * The comparison alone, for a write that already holds its row locked in its own transaction (a
 * transaction's balance move, a checklist toggle under its day's lock): the same refusal.
 */
export function requireVersion(current: VersionedEntity, expectedVersion: number | null | undefined, resource: string, view?: object): void {
  if (expectedVersion != null && current.version !== expectedVersion) throw new VersionConflictError(resource, current, view);
}
