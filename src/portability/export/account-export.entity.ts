import { Entity, Enum, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { User } from '../../accounts/user.entity.js';
import { BaseEntity } from '../../core/database/base.entity.js';
import type { StorageAdapterName } from '../../files/storage/storage.js';

export type ExportStatus = 'pending' | 'running' | 'done' | 'failed';
export const EXPORT_STATUSES: ExportStatus[] = ['pending', 'running', 'done', 'failed'];

/** One account export: a job that writes the user's zip archive to file storage. */
@Entity({ tableName: 'account_exports' })
@Index({ properties: ['userId', 'createdAt'] })
export class AccountExport extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Enum({ items: () => EXPORT_STATUSES, type: 'string' })
  status: Opt<ExportStatus> = 'pending';

  /** Where the archive went (set when done). */
  @Property({ type: 'string', length: 8, nullable: true })
  storageAdapter?: StorageAdapterName | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  storageKey?: string | null = null;

  @Property({ type: 'bigint', nullable: true })
  size?: string | null = null;

  /** Why the export failed (for the logs and support; not part of the answer). */
  @Property({ type: 'text', nullable: true })
  error?: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  finishedAt?: Date | null = null;
}
