import { Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { DateTimeISO, LocalDate } from '../core/scalars.js';
import { Day } from '../planning/day.entity.js';
import { Week } from '../planning/week.entity.js';
import { MealTemplate } from './meal-template.entity.js';

/**
 * The dinner of one day (spec: Dinner plan). Cooking rule (spec rule 5, operations.md): Monday,
 * Wednesday and Friday are cook days; Tuesday, Thursday and Saturday eat the cook day's meal
 * (`coveredByDinnerPlanId`); Sunday is free.
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'dinner_plans' })
export class DinnerPlan extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => ID)
  @Index()
  @ManyToOne(() => Week, { mapToPk: true, deleteRule: 'cascade', fieldName: 'week_id' })
  weekId!: string;

  @Field(() => ID)
  @Unique()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

  @Field(() => LocalDate, { description: "The day's date." })
  @Property({ type: 'date' })
  date!: string;

  @Field(() => ID, { nullable: true })
  @ManyToOne(() => MealTemplate, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'meal_template_id' })
  mealTemplateId?: string | null = null;

  @Field(() => Boolean, { description: 'Monday, Wednesday and Friday.' })
  @Property({ type: 'boolean' })
  isCookDay: Opt<boolean> = false;

  @Field(() => ID, { nullable: true, description: "On Tuesday, Thursday and Saturday: the cook day's plan whose meal this dinner eats." })
  @Property({ type: 'uuid', nullable: true })
  coveredByDinnerPlanId?: string | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  cooked: Opt<boolean> = false;

  @Field(() => DateTimeISO, { nullable: true })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  cookedAt?: Date | null = null;
}
