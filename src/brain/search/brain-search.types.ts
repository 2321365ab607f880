import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { Text } from '../../core/validation/text.js';
import { WholeNumber } from '../../core/validation/numbers.js';
import { OneOf } from '../../core/validation/choice.js';

export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;
export const BRAIN_ENTITY_TYPES = ['note', 'database', 'record', 'form'];
/** The refusals of a search `limit` (GraphQL, REST and the connector). */
export const SEARCH_LIMIT_MESSAGES = { int: 'limit must be a whole number', min: 'limit must be at least 1', max: `limit must be at most ${SEARCH_LIMIT_MAX}` };

@ArgsType()
export class BrainSearchArgs {
  @Field(() => String, { description: `Words to find (every word must match, as a word or the start of one); 1 to ${SEARCH_QUERY_MAX} characters.` })
  @Text(SEARCH_QUERY_MAX, 'q')
  q!: string;

  @Field(() => String, { nullable: true, description: `Only this type: ${BRAIN_ENTITY_TYPES.join(', ')}.` })
  @IsOptional()
  @OneOf('type', BRAIN_ENTITY_TYPES)
  type?: string;

  @Field(() => Int, { nullable: true, description: `How many results (default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX}).` })
  @IsOptional()
  @WholeNumber(1, SEARCH_LIMIT_MAX, SEARCH_LIMIT_MESSAGES)
  limit?: number;
}

@ObjectType({ simpleResolvers: true })
export class BrainSearchHit {
  @Field(() => String, { description: 'note, database, record or form.' })
  type!: string;

  @Field(() => ID)
  id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String, {
    description: 'A passage of the text around the matches, HTML-escaped, with each match inside <mark>…</mark>.',
  })
  snippet!: string;

  @Field(() => Float, { description: 'Relevance (PostgreSQL ts_rank): title matches weigh more than body matches.' })
  rank!: number;
}

@ObjectType({ simpleResolvers: true })
export class BrainEntityType {
  @Field(() => String)
  type!: string;

  @Field(() => Int, { description: 'How many of yours there are.' })
  count!: number;
}

@ObjectType({ simpleResolvers: true })
export class BrainReindexResult {
  @Field(() => Int, { description: 'Entities whose search vector was recomputed.' })
  reindexed!: number;

  @Field(() => [BrainEntityType], { description: 'Per type.' })
  types!: BrainEntityType[];
}
