import { ExpectedVersion } from '../core/validation/expected-version.js';
import { ArgsType, Field } from 'type-graphql';
import { ArrayMaxSize, IsOptional, Matches } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, LocalDate, UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import { DayRangeArgs } from '../training/training.types.js';
import { Person } from './person.entity.js';
import { SocialHappening } from './social-happening.entity.js';
import { OptionalText, RequiredText } from '../core/validation/text.js';

export const NAME_MAX = 200;
export const RELATIONSHIP_MAX = 50;
export const NOTES_MAX = 10_000;
export const TITLE_MAX = 300;
export const IDS_MAX = 100;
/** A birthday is a date from 1900 on (its year may be a guess; a yearly agenda entry from that date). */
const BIRTHDAY_FROM_1900 = /^(19|[2-9]\d)\d\d-/;
const BIRTHDAY_MESSAGE = 'birthday must be a date from 1900-01-01 on';
/** `Person.happenings` answers the most recent this many (all of them: /social-happenings?personId=, paged). */
export const PERSON_HAPPENINGS_SHOWN = 100;

// ---------------------------------------------------------------- people

@ArgsType()
export class ListPeopleArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Exact relationship type, any case.' })
  @OptionalText(RELATIONSHIP_MAX)
  relationshipType?: string;

  @Field(() => String, { nullable: true, description: 'Matches name and notes, case-insensitively.' })
  @OptionalText(200)
  search?: string;
}

@ArgsType()
export class PersonIdArgs {
  @Field(() => UUID)
  personId!: string;
}

/** A delete that may name the `version` last read (docs/concurrency.md). */
@ArgsType()
export class DeletePersonArgs extends PersonIdArgs {
  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class CreatePersonArgs {
  @Field(() => String)
  @RequiredText('name', NAME_MAX)
  name!: string;

  @Field(() => String, { nullable: true, description: 'For example friend, family; `friend` fires friend_added.' })
  @OptionalText(RELATIONSHIP_MAX, 'relationshipType')
  relationshipType?: string | null;

  @Field(() => UUID, { nullable: true, description: 'The id of one of your image files (POST /files/upload).' })
  pictureUrl?: string | null;

  @Field(() => String, { nullable: true })
  @OptionalText(NOTES_MAX, 'notes')
  notes?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD from 1900 on (the year may be a guess): a yearly all-day agenda entry.' })
  @IsOptional()
  @Matches(BIRTHDAY_FROM_1900, { message: BIRTHDAY_MESSAGE })
  birthday?: string | null;
}

@ArgsType()
export class UpdatePersonArgs extends PersonIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', NAME_MAX)
  name?: string;

  @Field(() => String, { nullable: true, description: 'null clears it; changing it to `friend` fires friend_added.' })
  @OptionalText(RELATIONSHIP_MAX, 'relationshipType')
  relationshipType?: string | null;

  @Field(() => UUID, { nullable: true, description: 'One of your image files; null removes the picture.' })
  pictureUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'null clears them.' })
  @OptionalText(NOTES_MAX, 'notes')
  notes?: string | null;

  @Field(() => LocalDate, { nullable: true, description: 'YYYY-MM-DD from 1900 on; null clears it.' })
  @IsOptional()
  @Matches(BIRTHDAY_FROM_1900, { message: BIRTHDAY_MESSAGE })
  birthday?: string | null;

  @ExpectedVersion()
  expectedVersion?: number | null;
}

export const PersonPage = Paginated(Person, 'PersonPage');
export type PersonPage = InstanceType<typeof PersonPage>;

// ---------------------------------------------------------------- social happenings

@ArgsType()
export class ListSocialHappeningsArgs extends DayRangeArgs {
  @Field(() => UUID, { nullable: true, description: 'Only the happenings this person of yours was a guest of.' })
  personId?: string;
}

@ArgsType()
export class SocialHappeningIdArgs {
  @Field(() => UUID)
  happeningId!: string;
}

@ArgsType()
export class CreateSocialHappeningArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => String)
  @RequiredText('title', TITLE_MAX)
  title!: string;

  @Field(() => DateTimeISO)
  startTime!: Date;

  @Field(() => DateTimeISO, { description: 'After startTime.' })
  endTime!: Date;

  @Field(() => String, { nullable: true })
  @OptionalText(TITLE_MAX, 'location')
  location?: string | null;

  @Field(() => [UUID], { nullable: true, description: 'Your people.' })
  @IsOptional()
  @ArrayMaxSize(IDS_MAX, { message: `guestIds holds at most ${IDS_MAX} ids` })
  guestIds?: string[] | null;

  @Field(() => [UUID], { nullable: true, description: 'Any ids your client keeps.' })
  @IsOptional()
  @ArrayMaxSize(IDS_MAX, { message: `itemIds holds at most ${IDS_MAX} ids` })
  itemIds?: string[] | null;
}

@ArgsType()
export class UpdateSocialHappeningArgs extends SocialHappeningIdArgs {
  @Field(() => UUID, { nullable: true, description: 'Moves it to another of your days.' })
  @IfPresent('dayId')
  dayId?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @RequiredText('title', TITLE_MAX)
  title?: string;

  @Field(() => DateTimeISO, { nullable: true })
  @IfPresent('startTime')
  startTime?: Date;

  @Field(() => DateTimeISO, { nullable: true })
  @IfPresent('endTime')
  endTime?: Date;

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(TITLE_MAX, 'location')
  location?: string | null;

  @Field(() => [UUID], { nullable: true, description: 'Replaces the guests; null or [] clears them.' })
  @IsOptional()
  @ArrayMaxSize(IDS_MAX, { message: `guestIds holds at most ${IDS_MAX} ids` })
  guestIds?: string[] | null;

  @Field(() => [UUID], { nullable: true, description: 'Replaces the item ids; null or [] clears them.' })
  @IsOptional()
  @ArrayMaxSize(IDS_MAX, { message: `itemIds holds at most ${IDS_MAX} ids` })
  itemIds?: string[] | null;
}

export const SocialHappeningPage = Paginated(SocialHappening, 'SocialHappeningPage');
export type SocialHappeningPage = InstanceType<typeof SocialHappeningPage>;
