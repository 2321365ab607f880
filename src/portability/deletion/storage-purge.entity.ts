import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/**
 * Blobs still to remove after an account deletion: written in the same database transaction that
 * removes the user's rows (so what to remove is known before the rows go), removed by the purge job
 * once storage holds nothing under the prefix. No foreign key: the user is gone by then.
 */
@Entity({ tableName: 'storage_purges' })
export class StoragePurge {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The storage key prefix (the former user's id): every file and variant lives below it. */
  @Property({ type: 'string', length: 64 })
  prefix!: string;

  /** The storage adapters holding blobs of that user (disk, s3). */
  @Property({ type: 'string[]', columnType: 'text[]' })
  adapters!: string[];

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();
}
