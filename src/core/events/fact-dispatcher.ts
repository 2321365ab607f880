import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventName, EventPayloads } from './event-catalog.js';
import type { InternalFactName, InternalFactPayloads } from './internal-facts.js';
import { TransactionQueue } from './transaction-queue.js';

export type FactPayloads = EventPayloads & InternalFactPayloads;
export type FactName = EventName | InternalFactName;

/** One thing that happened to a user's data: a catalog event or an internal fact. */
export type Fact = { [N in FactName]: { name: N; userId: string; data: FactPayloads[N]; occurredAt: Date } }[FactName];

/**
 * A reactor sees the facts of a transaction it reacts to just before that transaction commits, with an
 * entity manager bound to it: what it reads includes the change, and what it writes commits or rolls
 * back with it. `reactsTo` names its facts, so a write nobody reacts to pays for no reaction.
 */
export interface FactReactor {
  reactsTo(name: FactName): boolean;
  react(em: EntityManager, facts: readonly Fact[]): Promise<void>;
}

/** Facts waiting for their transaction's commit. */
const pending = new TransactionQueue<Fact>();

export function queueFact(em: EntityManager, fact: Fact): void {
  pending.push(em, fact);
}

/**
 * Runs `work` in a savepoint of the caller's transaction (MikroORM's nested `transactional`). MikroORM
 * fires no transaction events for a savepoint, so the facts of one that rolls back would still reach
 * the reactors when the outer transaction commits (XP for a record never written): they are dropped
 * with it here. Use it wherever a savepoint's failure is caught and the outer transaction goes on.
 */
export async function inSavepoint<T>(em: EntityManager, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const undo = TransactionQueue.marks(em);
  try {
    return await em.transactional(work);
  } catch (error) {
    for (const truncate of undo) truncate();
    throw error;
  }
}

/** Records an internal fact (never delivered to webhooks) for the reactors of the caller's transaction. */
export function recordFact<N extends InternalFactName>(em: EntityManager, userId: string, name: N, data: InternalFactPayloads[N], occurredAt = new Date()): void {
  queueFact(em, { name, userId, data, occurredAt } as Fact);
}

/** Reactions may record facts themselves (their own events); they are dispatched again, a bounded number of rounds. */
const MAX_ROUNDS = 4;

/**
 * The in-process subscription: a MikroORM subscriber that hands the facts recorded in a transaction
 * to the registered reactors just before that transaction commits (and drops them on rollback). The
 * app wiring registers it with its reactors; domain services only record facts.
 */
export class FactDispatcher implements EventSubscriber {
  /** The dispatcher registered on an entity manager's ORM, if any. */
  static of(em: EntityManager): FactDispatcher | undefined {
    for (const subscriber of em.getEventManager().getSubscribers()) if (subscriber instanceof FactDispatcher) return subscriber;
    return undefined;
  }

  constructor(private readonly reactors: readonly FactReactor[]) {}

  /** Whether any reactor reacts to `name` (a write of facts nobody reacts to needs no transaction for them). */
  reactsTo(name: FactName): boolean {
    return this.reactors.some((reactor) => reactor.reactsTo(name));
  }

  async beforeTransactionCommit(args: TransactionEventArgs): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const facts = pending.take(args);
      if (facts.length === 0 || !args.transaction) return;
      const wanted = this.reactors.map((reactor) => [reactor, facts.filter((fact) => reactor.reactsTo(fact.name))] as const).filter(([, mine]) => mine.length > 0);
      if (wanted.length === 0) return;
      const em = (args.em as EntityManager).fork({ clear: true, useContext: false });
      em.setTransactionContext(args.transaction);
      for (const [reactor, mine] of wanted) await reactor.react(em, mine);
      await em.flush();
    }
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    pending.take(args);
  }
}
