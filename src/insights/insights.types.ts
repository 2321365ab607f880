import { ArgsType, Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, Paginated } from '../core/pagination.js';
import { LocalDate, UUID } from '../core/scalars.js';
import { Insight } from './insight.entity.js';
import { InsightMetric } from './metrics.js';
import type { TrendDirection as Direction } from './weekly-summary.js';

export enum TrendDirection {
  rose = 'rose',
  fell = 'fell',
  steady = 'steady',
  unknown = 'unknown',
}
registerEnumType(TrendDirection, { name: 'TrendDirection', description: 'How a measure moved against the same days of the week before; unknown: too few days logged.' });
// The summary's plain direction strings are these values.
export const toDirection = (direction: Direction) => direction as TrendDirection;

export const InsightPage = Paginated(Insight, 'InsightPage');
export type InsightPage = InstanceType<typeof InsightPage>;

@ArgsType()
export class ListInsightsArgs extends PageArgs {
  @Field(() => InsightMetric, { nullable: true, description: 'Only insights about this measure (as condition or outcome).' })
  metric?: InsightMetric;
}

@ArgsType()
export class InsightIdArgs {
  @Field(() => UUID)
  insightId!: string;
}

@ArgsType()
export class InsightDateArgs {
  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD; your today when absent.' })
  date?: string;
}

@ObjectType({ simpleResolvers: true })
export class InsightMetricChange {
  @Field(() => InsightMetric)
  metric!: InsightMetric;

  @Field(() => String)
  label!: string;

  @Field(() => Float, { nullable: true, description: 'Daily mean this week, through `through` (a count: per day; a measure: per logged day).' })
  thisWeek!: number | null;

  @Field(() => Float, { nullable: true, description: 'Daily mean over the same weekdays of the week before.' })
  previousWeek!: number | null;

  @Field(() => Float, { nullable: true })
  change!: number | null;

  @Field(() => TrendDirection)
  direction!: TrendDirection;

  @Field(() => Int, { description: 'Days of this week with a value.' })
  daysLogged!: number;

  @Field(() => String, { nullable: true, description: 'What rose or fell, in a sentence; null when steady or unknown.' })
  sentence!: string | null;
}

@ObjectType({ simpleResolvers: true })
export class InsightStreak {
  @Field(() => InsightMetric)
  metric!: InsightMetric;

  @Field(() => String)
  label!: string;

  @Field(() => Int, { description: 'Days in a row (up to 90).' })
  days!: number;

  @Field(() => LocalDate, { description: 'Its last day.' })
  through!: string;

  @Field(() => String)
  sentence!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A week against the same weekdays of the week before, and the streaks alive at its end.' })
export class WeeklyInsightSummary {
  @Field(() => LocalDate)
  weekStart!: string;

  @Field(() => LocalDate)
  weekEnd!: string;

  @Field(() => LocalDate, { description: 'The last day summarised: Sunday, or today in the current week.' })
  through!: string;

  @Field(() => [InsightMetricChange])
  metrics!: InsightMetricChange[];

  @Field(() => [InsightMetric])
  rose!: InsightMetric[];

  @Field(() => [InsightMetric])
  fell!: InsightMetric[];

  @Field(() => [InsightStreak])
  streaks!: InsightStreak[];

  @Field(() => [String], { description: 'What rose, what fell and the streaks, in plain sentences.' })
  sentences!: string[];
}

@ObjectType({ simpleResolvers: true })
export class InsightDayValue {
  @Field(() => InsightMetric)
  metric!: InsightMetric;

  @Field(() => String)
  label!: string;

  @Field(() => Float)
  value!: number;

  @Field(() => String, { description: 'As a sentence writes it: "7.5 h", "23:10".' })
  text!: string;
}

@ObjectType({ simpleResolvers: true })
export class CategorySpending {
  @Field(() => String, { description: "The category as stored ('' without one)." })
  category!: string;

  @Field(() => Float)
  amount!: number;
}

@ObjectType({ simpleResolvers: true, description: 'What you logged on this date a year before.' })
export class ThisDayLastYear {
  @Field(() => LocalDate)
  date!: string;

  @Field(() => LocalDate, { description: 'The same calendar date a year before (28 February for a 29 February).' })
  lastYearDate!: string;

  @Field(() => [InsightDayValue])
  values!: InsightDayValue[];

  @Field(() => [CategorySpending], { description: 'Spending by category that day, largest first.' })
  spending!: CategorySpending[];

  @Field(() => String, { nullable: true, description: 'null when nothing was logged that day.' })
  sentence!: string | null;
}
