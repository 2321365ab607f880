import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { DayRecord } from '../planning/day-record.entity.js';
import { JournalQuestion } from './journal-question.entity.js';

/**
 * An answer to a journal question on one of the user's days (several per day). The question's text is
 * kept as answered, so the entry still reads right after the question is reworded or deleted (then
 * `questionId` becomes null).
 */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'journal_entries' })
export class JournalEntry extends DayRecord {
  @Field(() => ID, { nullable: true, description: 'Null once your question was deleted.' })
  @Index()
  @ManyToOne(() => JournalQuestion, { mapToPk: true, nullable: true, deleteRule: 'set null', fieldName: 'question_id' })
  questionId!: string | null;

  @Field(() => String, { description: 'The question as it read when answered.' })
  @Property({ type: 'text' })
  question!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  answer!: string;
}
