import { ArgsType, Field, Int } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import { JournalEntry } from './journal-entry.entity.js';
import { JournalQuestion } from './journal-question.entity.js';
import { RequiredText } from '../core/validation/text.js';
import { WholeNumber } from '../core/validation/numbers.js';

export const QUESTION_MAX = 500;
export const ANSWER_MAX = 10_000;
export const QUESTION_ORDER_MAX = 10_000;
/** The words of the `order` rules, shared with the connector's tool arguments. */
export const ORDER_MESSAGES = {
  int: 'order must be a whole number',
  min: 'order must not be negative',
  max: `order must be at most ${QUESTION_ORDER_MAX}`,
} as const;

// ---------------------------------------------------------------- questions

@ArgsType()
export class ListJournalQuestionsArgs extends PageArgs {}

@ArgsType()
export class JournalQuestionIdArgs {
  @Field(() => UUID)
  questionId!: string;
}

@ArgsType()
export class CreateJournalQuestionArgs {
  @Field(() => String)
  @RequiredText('question', QUESTION_MAX)
  question!: string;

  @Field(() => Int, { nullable: true, description: `Position among your questions, 0-${QUESTION_ORDER_MAX}; defaults to after your last one.` })
  @IsOptional()
  @WholeNumber(0, QUESTION_ORDER_MAX, ORDER_MESSAGES)
  order?: number | null;
}

@ArgsType()
export class UpdateJournalQuestionArgs extends JournalQuestionIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('question')
  @RequiredText('question', QUESTION_MAX)
  question?: string;

  @Field(() => Int, { nullable: true })
  @IfPresent('order')
  @WholeNumber(0, QUESTION_ORDER_MAX, ORDER_MESSAGES)
  order?: number;
}

export const JournalQuestionPage = Paginated(JournalQuestion, 'JournalQuestionPage');
export type JournalQuestionPage = InstanceType<typeof JournalQuestionPage>;

// ---------------------------------------------------------------- entries

@ArgsType()
export class ListJournalEntriesArgs extends PageArgs {
  @Field(() => UUID, { nullable: true })
  dayId?: string;

  @Field(() => UUID, { nullable: true })
  questionId?: string;
}

@ArgsType()
export class JournalEntryIdArgs {
  @Field(() => UUID)
  entryId!: string;
}

@ArgsType()
export class CreateJournalEntryArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => UUID, { description: 'A global question or one of your own.' })
  questionId!: string;

  @Field(() => String)
  @RequiredText('answer', ANSWER_MAX)
  answer!: string;
}

@ArgsType()
export class UpdateJournalEntryArgs extends JournalEntryIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('answer')
  @RequiredText('answer', ANSWER_MAX)
  answer?: string;
}

export const JournalEntryPage = Paginated(JournalEntry, 'JournalEntryPage');
export type JournalEntryPage = InstanceType<typeof JournalEntryPage>;
