import { Entity, Index, ManyToOne, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';

/**
 * One idempotency key of one person (docs/idempotency.md): the request it was first sent with (its
 * fingerprint) and, once that request finished, its answer. `status` null means the first request is
 * still running; `body` null with a status means the answer was too large to keep. Written and read
 * by raw statements only (idempotency.queries.ts); the entity keeps the table's shape checked.
 */
@Entity({ tableName: 'idempotency_keys' })
export class IdempotencyKey {
  [PrimaryKeyProp]?: ['userId', 'key'];

  @ManyToOne(() => User, { primary: true, mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  /** `http:<Idempotency-Key>` or `mcp:<clientRequestId>`: each surface has its own keys. */
  @PrimaryKey({ type: 'string', length: 300 })
  key!: string;

  /** SHA-256 (hex) of the request: method, path and body, or the tool and its arguments. */
  @Property({ type: 'string', length: 64 })
  fingerprint!: string;

  @Property({ type: 'smallint', nullable: true })
  status?: number | null;

  @Property({ type: 'json', nullable: true })
  headers?: Record<string, string> | null;

  @Property({ type: 'text', nullable: true })
  body?: string | null;

  /** When the key was first claimed: it lives 24 h from then (the purge job's index). */
  @Index()
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt!: Date;
}
