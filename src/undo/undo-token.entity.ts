import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * An undo token's row (docs/undo.md): written when the token is used (single use: its id is the token's
 * own), or at the write when the offer's `data` was too big to travel in the token (the inverse's
 * snapshot). Expired rows are swept by the hourly job.
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

  /** When it was used; null: offered and not used yet. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  usedAt?: Date | null = null;
}
