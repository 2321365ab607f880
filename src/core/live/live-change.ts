/**
 * What a live subscriber hears: which of a person's records changed, after the change committed. It
 * names the entity (its class name), its id and the kind of change, never the data: a subscriber
 * reads the current state itself, through the same code as the query it follows.
 */
export type LiveChangeKind = 'created' | 'updated' | 'deleted';

export interface LiveChange {
  entity: string;
  id: string;
  kind: LiveChangeKind;
  /**
   * The records this one belongs to before and after the change, by kind as the composition's
   * `ScopeOf` names them (`{ day: [...], week: [...], project: [...] }`): a subscription to another one
   * need not read again. A kind left out (or no scope: a raw write) is not known: then the change may
   * concern any record of that kind.
   */
  scope?: LiveScope;
}

/** Ids by kind of record (the kinds are the domains' names; core names none). */
export type LiveScope = Readonly<Record<string, readonly string[]>>;

/** The changes of one committed transaction to one person's records, in the order they were written. */
export interface LiveBatch {
  userId: string;
  changes: LiveChange[];
  /** When the transaction committed (ms since the epoch), for delivery latency. */
  committedAt: number;
  /**
   * The person's change-feed cursor of the last of these changes (docs/sync.md), when the transaction
   * recorded any in the feed: a client that heard it syncs from it without a gap or a duplicate.
   */
  cursor?: string;
}
