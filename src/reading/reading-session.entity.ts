import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DayRecord } from '../planning/day-record.entity.js';
import { Book } from './book.entity.js';

/** Pages of one book read on one of the user's days. Deleted with its book. */
@ObjectType({ simpleResolvers: true })
@Entity({ tableName: 'reading_sessions' })
export class ReadingSession extends DayRecord {
  @Field(() => ID)
  @Index()
  @ManyToOne(() => Book, { mapToPk: true, deleteRule: 'cascade', fieldName: 'book_id' })
  bookId!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  pagesRead!: number;

  @Field(() => Int, { description: 'Minutes.' })
  @Property({ type: 'integer' })
  duration!: number;

  /**
   * How far this session actually moved the book's currentPage (pagesRead, capped at totalPages):
   * what deleting or changing the session takes back.
   */
  @Property({ type: 'integer' })
  pagesAdded!: number;
}
