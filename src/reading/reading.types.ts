import { ArgsType, Field, Int } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import { DayRangeArgs } from '../training/training.types.js';
import { Book } from './book.entity.js';
import { ReadingSession } from './reading-session.entity.js';
import { RequiredText } from '../core/validation/text.js';
import { WholeNumber } from '../core/validation/numbers.js';

export const TITLE_MAX = 300;
export const PAGES_MAX = 100_000;
/** A session lasts at most a day. */
export const READING_MINUTES_MAX = 1_440;

/** The words of the number rules, shared with the connector's tool arguments. */
export const pagesMessages = (field: 'totalPages' | 'pagesRead') =>
  ({ int: `${field} must be a whole number`, min: `${field} must be at least 1`, max: `${field} must be at most ${PAGES_MAX}` }) as const;
export const CURRENT_PAGE_MESSAGES = { int: 'currentPage must be a whole number', min: 'currentPage must not be negative' } as const;
export const DURATION_MESSAGES = {
  int: 'duration must be whole minutes',
  min: 'duration must be a positive number of minutes',
  max: `duration must be at most ${READING_MINUTES_MAX} minutes`,
} as const;

// ---------------------------------------------------------------- books

@ArgsType()
export class ListBooksArgs extends PageArgs {}

@ArgsType()
export class BookIdArgs {
  @Field(() => UUID)
  bookId!: string;
}

@ArgsType()
export class CreateBookArgs {
  @Field(() => String)
  @RequiredText('title', TITLE_MAX)
  title!: string;

  @Field(() => String)
  @RequiredText('author', TITLE_MAX)
  author!: string;

  @Field(() => Int, { description: `1-${PAGES_MAX}.` })
  @WholeNumber(1, PAGES_MAX, pagesMessages('totalPages'))
  totalPages!: number;

  @Field(() => UUID, { nullable: true, description: 'The id of one of your image files (POST /files/upload).' })
  coverUrl?: string | null;

  @Field(() => Int, { nullable: true, description: '0..totalPages; defaults to 0.' })
  @IsOptional()
  @WholeNumber(0, undefined, CURRENT_PAGE_MESSAGES)
  currentPage?: number | null;
}

@ArgsType()
export class UpdateBookArgs extends BookIdArgs {
  @Field(() => Int, { nullable: true, description: '0..totalPages.' })
  @IfPresent('currentPage')
  @WholeNumber(0, undefined, CURRENT_PAGE_MESSAGES)
  currentPage?: number;

  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @RequiredText('title', TITLE_MAX)
  title?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('author')
  @RequiredText('author', TITLE_MAX)
  author?: string;

  @Field(() => Int, { nullable: true, description: 'Not below currentPage.' })
  @IfPresent('totalPages')
  @WholeNumber(1, PAGES_MAX, pagesMessages('totalPages'))
  totalPages?: number;

  @Field(() => UUID, { nullable: true, description: 'One of your image files; null removes the cover.' })
  coverUrl?: string | null;
}

export const BookPage = Paginated(Book, 'BookPage');
export type BookPage = InstanceType<typeof BookPage>;

// ---------------------------------------------------------------- reading sessions

@ArgsType()
export class ListReadingSessionsArgs extends DayRangeArgs {
  @Field(() => UUID, { nullable: true, description: 'Only the sessions of this book of yours.' })
  bookId?: string;
}

@ArgsType()
export class ReadingSessionIdArgs {
  @Field(() => UUID)
  sessionId!: string;
}

@ArgsType()
export class CreateReadingSessionArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => UUID, { description: 'One of your books.' })
  bookId!: string;

  @Field(() => Int, { description: `1-${PAGES_MAX}; raises the book's currentPage (capped at totalPages).` })
  @WholeNumber(1, PAGES_MAX, pagesMessages('pagesRead'))
  pagesRead!: number;

  @Field(() => Int, { description: `Minutes, 1-${READING_MINUTES_MAX}.` })
  @WholeNumber(1, READING_MINUTES_MAX, DURATION_MESSAGES)
  duration!: number;
}

@ArgsType()
export class UpdateReadingSessionArgs extends ReadingSessionIdArgs {
  @Field(() => Int, { nullable: true, description: "Moves the book's currentPage by the difference (capped)." })
  @IfPresent('pagesRead')
  @WholeNumber(1, PAGES_MAX, pagesMessages('pagesRead'))
  pagesRead?: number;

  @Field(() => Int, { nullable: true })
  @IfPresent('duration')
  @WholeNumber(1, READING_MINUTES_MAX, DURATION_MESSAGES)
  duration?: number;
}

export const ReadingSessionPage = Paginated(ReadingSession, 'ReadingSessionPage');
export type ReadingSessionPage = InstanceType<typeof ReadingSessionPage>;
