import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { WholeNumber } from './validation/numbers.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'Page number, from 1 (default 1).' })
  @IsOptional()
  @WholeNumber(1, undefined)
  page?: number;

  @Field(() => Int, { nullable: true, description: 'Items per page (default 50; more than 100 counts as 100).' })
  @IsOptional()
  @WholeNumber(1, undefined)
  limit?: number;
}

export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

/** operations.md: limit defaults to 50 and a limit above 100 is treated as 100. */
export function pageWindow(args: PageArgs): PageWindow {
  const page = args.page ?? 1;
  const limit = Math.min(args.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page, limit, offset: (page - 1) * limit };
}

@ObjectType({ simpleResolvers: true })
export class PageMeta {
  @Field(() => Int)
  page!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  total!: number;
}

export interface Page<T> {
  items: T[];
  meta: PageMeta;
}

/**
 * A page of items. The REST layer turns `{ items, meta }` into `{ ok, data: items, meta }`
 * (src/http/envelope.ts), so every paginated list has one shape on both surfaces.
 */
export function Paginated<T extends object>(itemType: ClassType<T>, name: string) {
  @ObjectType(name, { simpleResolvers: true })
  class PageClass implements Page<T> {
    @Field(() => [itemType])
    items!: T[];

    @Field(() => PageMeta)
    meta!: PageMeta;
  }
  return PageClass;
}

export function toPage<T>(items: T[], total: number, window: PageWindow): Page<T> {
  return { items, meta: { page: window.page, limit: window.limit, total } };
}
