import { Entity, Enum, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { User } from '../../accounts/user.entity.js';
import { BaseEntity } from '../../core/database/base.entity.js';

export const IMPORT_SOURCES = ['strong', 'goodreads', 'transactions'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export type ImportStatus = 'pending' | 'running' | 'done' | 'failed';

/** What a workout import made of the app's exercise names (GET /account/import/:id `exercises`). */
export interface ExerciseNames {
  /** Names found in the catalog or among the user's exercises, with the exercise each became. */
  matched: { name: string; exercise: string }[];
  /** Names made the user's own exercises. */
  created: string[];
  /** Names only in refused rows or workouts: nothing was made of them. */
  left: string[];
}

/** One refused CSV row: its line in the file (the header is line 1) and why. */
export interface RefusedRow {
  row: number;
  reason: string;
}

/**
 * One import of a CSV file (POST /account/import/:source): the file waits here for its job (any
 * instance may run it), and the outcome is kept for GET /account/import/:id. Goes with its user.
 */
@Entity({ tableName: 'account_imports' })
@Index({ properties: ['userId', 'createdAt'] })
export class ImportRun extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Enum({ items: () => IMPORT_SOURCES, type: 'string' })
  source!: ImportSource;

  @Enum({ items: () => ['pending', 'running', 'done', 'failed'], type: 'string' })
  status: Opt<ImportStatus> = 'pending';

  /** The uploaded CSV's bytes as sent (any encoding), until the job has run (then null). */
  @Property({ type: 'blob', columnType: 'bytea', nullable: true, lazy: true })
  content?: Buffer | null = null;

  /** Source options: the transactions import's accountId and column mapping. */
  @Property({ type: 'json', nullable: true })
  options?: Record<string, unknown> | null = null;

  @Property({ type: 'integer' })
  created: Opt<number> = 0;

  @Property({ type: 'integer' })
  skipped: Opt<number> = 0;

  /** The first MAX_REFUSALS_KEPT refused rows (file order); `refusedTotal` counts them all. */
  @Property({ type: 'json' })
  refused: Opt<RefusedRow[]> = [];

  @Property({ type: 'integer' })
  refusedTotal: Opt<number> = 0;

  /** The file's data rows (counted when it was uploaded) and how many are done (committed chunks). */
  @Property({ type: 'integer' })
  rowsTotal: Opt<number> = 0;

  @Property({ type: 'integer' })
  rowsDone: Opt<number> = 0;

  /** A workout import's exercise names: matched, created, left (null for other sources). */
  @Property({ type: 'json', nullable: true })
  exerciseNames?: ExerciseNames | null = null;

  /** When the first run claimed it: rows the account held before this count as already there. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  startedAt?: Date | null = null;

  /** The running job's last sign of life; a run whose heartbeat is stale may be taken over. */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  heartbeatAt?: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  finishedAt?: Date | null = null;
}
