import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import { RequiredText } from '../core/validation/text.js';
import { OneOf } from '../core/validation/choice.js';
import { QUICK_ADD_LOCALES, type QuickAddLocale } from './dates.js';
import { QUICK_TEXT_MAX } from './parse-line.js';
import { QUICK_KINDS } from './draft.js';

export { QUICK_TEXT_MAX };

/** A token holds at least one character of the line. */
export const QUICK_TOKENS_MAX = QUICK_TEXT_MAX;
/** Other readings: one per kind at most (the parser keeps one reading of each kind). */
export const QUICK_ALTERNATIVES_MAX = QUICK_KINDS.length;
/** Defaults filled in: a builder and a writer add at most a few each (a happening's time and end, a glass's size …). */
export const QUICK_ASSUMPTIONS_MAX = 10;

@ArgsType()
export class QuickAddArgs {
  @Field(() => String, { description: `One line as a person types it ("coffee 3.50 eur #food from checking"), at most ${QUICK_TEXT_MAX} characters.` })
  @RequiredText('text', QUICK_TEXT_MAX)
  text!: string;

  @Field(() => Boolean, { nullable: true, description: 'true: say what would be created, write nothing.' })
  @IsOptional()
  dryRun?: boolean | null;

  @Field(() => String, { nullable: true, description: `How dates are read: ${QUICK_ADD_LOCALES.join(', ')} (en-GB: day before month). Default en.` })
  @IsOptional()
  @OneOf('locale', QUICK_ADD_LOCALES)
  locale?: QuickAddLocale | null;
}

@ObjectType({ simpleResolvers: true, description: 'A span of the line and what it was read as.' })
export class QuickAddToken {
  @Field(() => Int, { description: 'Offset of its first character.' })
  start!: number;

  @Field(() => Int, { description: 'Offset after its last character.' })
  end!: number;

  @Field(() => String)
  text!: string;

  @Field(() => String, { description: 'What it was read as ("date", "amount", "exercise", "keyword" …).' })
  meaning!: string;

  @Field(() => String, { nullable: true, description: 'The record field it fills.' })
  field?: string;

  @Field(() => JSONResolver, { nullable: true, description: 'The value it gave that field.' })
  value?: unknown;
}

@ObjectType({ simpleResolvers: true, description: 'The record written, or that would be written on a dry run.' })
export class QuickAddRecord {
  @Field(() => String, { description: 'Its type: Task, WaterIntake, FinanceTransaction …' })
  type!: string;

  @Field(() => String, { nullable: true, description: 'Its id; null on a dry run.' })
  id!: string | null;

  @Field(() => JSONObjectResolver, { description: 'Its fields as understood, names matched to ids.' })
  fields!: Record<string, unknown>;
}

@ObjectType({ simpleResolvers: true, description: 'Another reading of the same line.' })
export class QuickAddAlternative {
  @Field(() => String)
  kind!: string;

  @Field(() => String)
  summary!: string;

  @Field(() => JSONObjectResolver)
  fields!: Record<string, unknown>;
}

@ObjectType({ simpleResolvers: true, description: 'What quick add understood and made.' })
export class QuickAddResult {
  @Field(() => String)
  text!: string;

  @Field(() => Boolean)
  dryRun!: boolean;

  @Field(() => Boolean, { description: 'Whether the record was written (false on a dry run).' })
  created!: boolean;

  @Field(() => String, { description: 'task, recurring_task, habit, habit_entry, water, steps, sleep, mood, weight, expense, income, training, reading, social.' })
  kind!: string;

  @Field(() => String, { description: 'One sentence saying what is recorded.' })
  summary!: string;

  @Field(() => QuickAddRecord)
  record!: QuickAddRecord;

  @Field(() => [QuickAddToken], { description: 'The line token by token.' })
  tokens!: QuickAddToken[];

  @Field(() => [String], { description: 'Each value the line did not give and the default filled in.' })
  assumptions!: string[];

  @Field(() => [QuickAddAlternative], { description: 'Other readings of the line, when it is ambiguous.' })
  alternatives!: QuickAddAlternative[];
}
