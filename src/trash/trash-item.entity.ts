import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * The outline of what a trashed record's deletion took: the rows themselves are in `trash_rows` and the
 * nulled references in `trash_links` (copied and restored by SQL, never through the service's memory).
 */
export interface TrashSnapshot {
  /** The tables that gave rows, parents before children: restoring them in this order satisfies every foreign key. */
  tables: string[];
  /**
   * The references (`table.column`, ON DELETE SET NULL, or a kind's undeclared ones) the deletion nulled:
   * set back on restore. `array`: a JSON array of ids the record's id was taken out of (a happening's guests).
   */
  links: { table: string; column: string; array?: true }[];
  /** What the kind's own deletion undid beyond the foreign keys (a person's guest places), for its restore. */
  extra?: Record<string, unknown>;
}

/**
 * A deleted record in the trash (docs/trash.md): the record itself is really deleted, so every reader
 * (ORM and raw SQL, feeds, agenda, exports, the assistant) stops seeing it without a filter; this row and
 * its `trash_rows` and `trash_links` (raw tables, trash.queries.ts) keep what restore re-inserts, with the
 * same ids, until it is restored, deleted for good or purged.
 */
@Entity({ tableName: 'trash_items' })
@Index({ properties: ['userId', 'deletedAt'] })
@Index({ properties: ['deletedAt'] })
export class TrashItem extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  /** `task`, `projectTask`, `note`, `record`, `person`, `transaction`, `habit`, `file`. */
  @Property({ type: 'string', length: 32 })
  kind!: string;

  /** The id of the deleted record (restored with it). */
  @Property({ type: 'uuid' })
  recordId!: string;

  /** A title to show in the trash list (the record's title or name). */
  @Property({ type: 'string', length: 300 })
  label!: string;

  @Property({ type: 'json' })
  snapshot!: TrashSnapshot;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  deletedAt: Opt<Date> = new Date();
}
