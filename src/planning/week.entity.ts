import { Entity, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';
import { LocalDate } from '../core/scalars.js';

/** Monday to Sunday; generating a week creates it and its 7 days. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'weeks' })
@Unique({ properties: ['userId', 'startDate'] })
export class Week extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => LocalDate, { description: 'The Monday that starts the week.' })
  @Property({ type: 'date' })
  startDate!: string;

  @Field(() => LocalDate, { description: 'The Sunday that ends the week.' })
  @Property({ type: 'date' })
  endDate!: string;

  @Field(() => Boolean, { description: 'Stress weeks use the stress-week bedtime targets (spec rule 7).' })
  @Property({ type: 'boolean' })
  isStressWeek: Opt<boolean> = false;
}
