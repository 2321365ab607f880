import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Per-request dataloaders of every domain, made on first use so a request pays only for what it
 * reads. A new domain module adds its factory here.
 */
export function createLoaders(em: EntityManager) {
  void em;
  return {};
}

export type Loaders = ReturnType<typeof createLoaders>;
