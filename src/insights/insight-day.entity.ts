import { Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * One person-day of the measures insights relate, built by the nightly job from the domains' tables
 * (daily-sources.queries.ts). A measure is null on a day without an entry; a count is 0. Not part of
 * the API (the insights and the summaries are); exported with the account.
 */
@Entity({ tableName: 'insight_days' })
@Unique({ properties: ['userId', 'date'] })
export class InsightDay extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Property({ type: 'date' })
  date!: string;

  @Property({ type: 'double', nullable: true })
  sleepHours?: number | null = null;

  /** The night's bedtime as minutes after noon in the person's time zone (23:00 → 660, 01:00 → 780). */
  @Property({ type: 'integer', nullable: true })
  bedtimeMinutes?: number | null = null;

  @Property({ type: 'double', nullable: true })
  mood?: number | null = null;

  @Property({ type: 'double', nullable: true })
  energy?: number | null = null;

  @Property({ type: 'integer', nullable: true })
  steps?: number | null = null;

  @Property({ type: 'double', nullable: true })
  waterMl?: number | null = null;

  @Property({ type: 'integer' })
  trainingSessions: Opt<number> = 0;

  /** Σ reps × load (kg) of the day's training sets. */
  @Property({ type: 'double' })
  trainingLoad: Opt<number> = 0;

  @Property({ type: 'integer' })
  readingMinutes: Opt<number> = 0;

  /** Habits whose entries of the day reached their target. */
  @Property({ type: 'integer', nullable: true })
  habitsDone?: number | null = null;

  @Property({ type: 'integer' })
  socialHappenings: Opt<number> = 0;

  /** What went out, every account summed as recorded (no currency conversion). */
  @Property({ type: 'decimal', precision: 15, scale: 2 })
  spending: Opt<string> = '0';

  /** The same by category (as stored, lower case; '' without one). */
  @Property({ type: 'json' })
  spendingByCategory: Opt<Record<string, number>> = {};

  @Property({ type: 'integer' })
  tasksDone: Opt<number> = 0;

  @Property({ type: 'integer' })
  tasksDeferred: Opt<number> = 0;
}

/**
 * The nightly job's bookkeeping per person: the local date of the last finished run (a person is due
 * again once their local date moves past it and their clock passes the nightly hour) and the last day
 * its aggregates cover, and when the whole window was last rebuilt. A run's batch commits these with its aggregates and insights, so a restart
 * repeats nothing a committed batch did.
 */
@Entity({ tableName: 'insight_runs' })
@Index({ properties: ['runDate'] })
export class InsightRun extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id', unique: true })
  userId!: string;

  @Property({ type: 'date', nullable: true })
  runDate?: string | null = null;

  @Property({ type: 'date', nullable: true })
  aggregatedThrough?: string | null = null;

  /** The local date of the last run that rebuilt the whole window (a week later it is rebuilt again). */
  @Property({ type: 'date', nullable: true })
  fullBuiltOn?: string | null = null;

  @Property({ type: 'integer' })
  testsRun: Opt<number> = 0;

  @Property({ type: 'integer' })
  insightsFound: Opt<number> = 0;
}
