import type { TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Things recorded during a transaction and handed on when it ends (facts for the reactors, changes for
 * live subscribers). The key is the root database transaction when recorded inside one (nested
 * transactions are savepoints of it), else the unit of work whose next flush opens the transaction
 * that writes the change; MikroORM's transaction events carry both.
 */
export class TransactionQueue<T> {
  private static readonly all: TransactionQueue<unknown>[] = [];
  private readonly pending = new WeakMap<object, T[]>();

  constructor() {
    TransactionQueue.all.push(this as TransactionQueue<unknown>);
  }

  push(em: EntityManager, item: T): void {
    const key = queueKey(em);
    const list = this.pending.get(key);
    if (list) list.push(item);
    else this.pending.set(key, [item]);
  }

  /** How many items wait for `em`'s transaction (a savepoint's mark). */
  size(em: EntityManager): number {
    return this.pending.get(queueKey(em))?.length ?? 0;
  }

  /** Drops what was recorded for `em`'s transaction after `mark`. */
  truncate(em: EntityManager, mark: number): void {
    this.pending.get(queueKey(em))?.splice(mark);
  }

  /** What waits for the transaction of `args`, left in place (read before its commit). */
  peek(args: TransactionEventArgs): T[] {
    const items: T[] = [];
    for (const key of [args.transaction, args.uow]) {
      const list = key && this.pending.get(key);
      if (list) items.push(...list);
    }
    return items;
  }

  /** Removes and answers what waits for the transaction of `args`. */
  take(args: TransactionEventArgs): T[] {
    const items: T[] = [];
    for (const key of [args.transaction, args.uow]) {
      if (!key) continue;
      const list = this.pending.get(key);
      if (list) {
        this.pending.delete(key);
        items.push(...list);
      }
    }
    return items;
  }

  /** Every queue's marks for `em`'s transaction, to undo a savepoint that rolls back. */
  static marks(em: EntityManager): (() => void)[] {
    return TransactionQueue.all.map((queue) => {
      const mark = queue.size(em);
      return () => queue.truncate(em, mark);
    });
  }
}

/** MikroORM marks a nested transaction (savepoint) with its parent under this symbol's description. */
function rootTransaction(trx: object): object {
  let current = trx as Record<symbol, object>;
  for (;;) {
    const parent = Object.getOwnPropertySymbols(current).find((s) => s.description === 'parentTransaction');
    if (!parent || !current[parent]) return current;
    current = current[parent] as Record<symbol, object>;
  }
}

function queueKey(em: EntityManager): object {
  const trx = em.getTransactionContext();
  return trx ? rootTransaction(trx) : em.getUnitOfWork();
}
