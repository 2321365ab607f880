import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * An offer to undo one write (docs/undo.md): its id is the token the write's answer carried; `data` is
 * what the kind's inverse needs (the previous status, the trash entry, the record's version after the
 * write). Deleted when used; expired ones are refused and swept by the hourly job.
 */
@Entity({ tableName: 'undo_tokens' })
@Index({ properties: ['expiresAt'] })
export class UndoToken extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id', index: true })
  userId!: string;

  /** The registered write kind (src/undo/undo-kinds.ts), e.g. `task_status`. */
  @Property({ type: 'string', length: 40 })
  kind!: string;

  /** The record the write changed. */
  @Property({ type: 'uuid' })
  recordId!: string;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;
}
