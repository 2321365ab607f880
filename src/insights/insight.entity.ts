import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { DateTimeISO, LocalDate } from '../core/scalars.js';
import { InsightMetric } from './metrics.js';

/**
 * A relation between two of a person's daily measures that survived the false-discovery control of the
 * night it was found (docs/insights.md): the days where `condition` held against the others, `lag`
 * days later, differ in `outcome` by `effect`. The nightly job replaces a person's insights each run.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'insights' })
@Index({ properties: ['userId', 'q'] })
export class Insight extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String, { description: 'The finding in a plain sentence, with its days and q-value.' })
  @Property({ type: 'text' })
  sentence!: string;

  @Field(() => InsightMetric, { description: 'The measure whose days are split (at `threshold`).' })
  @Enum({ items: () => InsightMetric, type: 'string' })
  condition!: InsightMetric;

  @Field(() => InsightMetric, { description: 'The measure compared between the two groups of days, `lag` days later.' })
  @Enum({ items: () => InsightMetric, type: 'string' })
  outcome!: InsightMetric;

  @Field(() => Int, { description: 'Days between the condition day and the outcome day: 0, 1 or 2.' })
  @Property({ type: 'smallint' })
  lag!: number;

  @Field(() => Float, { description: "Spearman's rank correlation (ties averaged), -1..1." })
  @Property({ type: 'double' })
  rho!: number;

  @Field(() => Int, { description: 'Pairs of days the correlation rests on.' })
  @Property({ type: 'integer' })
  n!: number;

  @Field(() => Float, { description: 'Two-sided p-value of rho (t-approximation, n - 2 degrees of freedom).' })
  @Property({ type: 'double' })
  p!: number;

  @Field(() => Float, { description: "Benjamini–Hochberg adjusted p-value across all of the night's tests of this person." })
  @Property({ type: 'double' })
  q!: number;

  @Field(() => Float, { description: 'The condition split: days at or above it (at or below it for bedtime) against the rest.' })
  @Property({ type: 'double' })
  threshold!: number;

  @Field(() => Float, { description: 'Effect size: mean outcome on condition days minus mean outcome on the other days, in the outcome\'s unit.' })
  @Property({ type: 'double' })
  effect!: number;

  @Field(() => Float, { description: 'Mean outcome on the condition days.' })
  @Property({ type: 'double' })
  meanWith!: number;

  @Field(() => Float, { description: 'Mean outcome on the other days.' })
  @Property({ type: 'double' })
  meanWithout!: number;

  @Field(() => Int, { description: 'Days in the condition group.' })
  @Property({ type: 'integer' })
  conditionDays!: number;

  @Field(() => [LocalDate], { description: 'The condition days of the pairs, oldest first (each outcome day is `lag` days later).' })
  @Property({ type: 'string[]', columnType: 'text[]' })
  days!: string[];

  @Field(() => DateTimeISO, { description: 'When the nightly job found it.' })
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  computedAt!: Date;
}
