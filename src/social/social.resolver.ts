import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { StoredFile } from '../files/stored-file.entity.js';
import { FileService } from '../files/file.service.js';
import { VariantName } from '../files/file-kinds.js';
import { blobKey } from '../files/storage/storage.js';
import { Day } from '../planning/day.entity.js';
import { Person } from './person.entity.js';
import { PersonService } from './person.service.js';
import { SocialHappening } from './social-happening.entity.js';
import { SocialHappeningService } from './social-happening.service.js';
import {
  CreatePersonArgs,
  CreateSocialHappeningArgs,
  ListPeopleArgs,
  ListSocialHappeningsArgs,
  PersonIdArgs,
  PersonPage,
  PERSON_HAPPENINGS_SHOWN,
  SocialHappeningIdArgs,
  SocialHappeningPage,
  UpdatePersonArgs,
  UpdateSocialHappeningArgs,
  DeletePersonArgs,
} from './social.types.js';
import { Service, serviceFor } from '../core/request-services.js';

@Authorized()
@Resolver(() => Person)
export class PersonResolver {
  @Query(() => PersonPage, { description: 'Your people by name; filter by relationshipType, search name and notes.' })
  async people(@Args(() => ListPeopleArgs) args: ListPeopleArgs, @CurrentUserId() userId: string, @Service(PersonService) personService: PersonService): Promise<PersonPage> {
    return personService.list(userId, args);
  }

  @Query(() => Person)
  async person(@Args(() => PersonIdArgs) args: PersonIdArgs, @CurrentUserId() userId: string, @Service(PersonService) personService: PersonService): Promise<Person> {
    return personService.get(userId, args.personId);
  }

  @Mutation(() => Person, { description: '`pictureUrl` is the id of one of your image files; relationshipType `friend` fires friend_added.' })
  async createPerson(@Args(() => CreatePersonArgs) args: CreatePersonArgs, @CurrentUserId() userId: string, @Service(PersonService) personService: PersonService): Promise<Person> {
    return personService.create(userId, args);
  }

  @Mutation(() => Person, { description: 'Changing relationshipType to `friend` fires friend_added.' })
  async updatePerson(@Args(() => UpdatePersonArgs) args: UpdatePersonArgs, @CurrentUserId() userId: string, @Service(PersonService) personService: PersonService): Promise<Person> {
    const { personId, expectedVersion, ...changes } = args;
    return personService.update(userId, personId, changes, expectedVersion);
  }

  @Mutation(() => Deleted, { description: 'Also takes the person out of the guests of your happenings.' })
  async deletePerson(@Args(() => DeletePersonArgs) args: DeletePersonArgs, @CurrentUserId() userId: string, @Service(PersonService) personService: PersonService): Promise<Deleted> {
    return personService.delete(userId, args.personId, args.expectedVersion);
  }

  @FieldResolver(() => StoredFile, { nullable: true, description: 'The picture (with its URL and variants, the thumbnail among them).' })
  picture(@Root() person: Person, @Ctx() ctx: AppContext): Promise<StoredFile | null> | null {
    return person.pictureUrl ? ctx.loaders.files.fileById.load(person.pictureUrl) : null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: "Short-lived URL of the picture's 150×150 thumbnail (made after upload; with lazy variants the first fileUrl of it makes it).",
  })
  async pictureThumbnailUrl(@Root() person: Person, @Ctx() ctx: AppContext): Promise<string | null> {
    if (!person.pictureUrl) return null;
    const file = await ctx.loaders.files.fileById.load(person.pictureUrl);
    if (!file?.isImage) return null;
    const files = await serviceFor(ctx, FileService);
    return (await files.signedUrl(file, blobKey(file.userId, file.id, VariantName.thumbnail), VariantName.thumbnail)).url;
  }

  @FieldResolver(() => [SocialHappening], { description: `The most recent ${PERSON_HAPPENINGS_SHOWN} happenings they were a guest of, most recent first ("when did I last see them"); all of them: the paged happenings list filtered by personId.` })
  happenings(@Root() person: Person, @Ctx() ctx: AppContext): Promise<SocialHappening[]> {
    return ctx.loaders.social.happeningsByPersonId.load(person.id);
  }
}

@Authorized()
@Resolver(() => SocialHappening)
export class SocialHappeningResolver {
  @Query(() => SocialHappeningPage, { description: 'Your happenings, most recent first; filter by day, date range or guest.' })
  socialHappenings(@Args(() => ListSocialHappeningsArgs) args: ListSocialHappeningsArgs, @CurrentUserId() userId: string, @Service(SocialHappeningService) socialHappeningService: SocialHappeningService): Promise<SocialHappeningPage> {
    return socialHappeningService.list(userId, args);
  }

  @Query(() => SocialHappening)
  socialHappening(@Args(() => SocialHappeningIdArgs) args: SocialHappeningIdArgs, @CurrentUserId() userId: string, @Service(SocialHappeningService) socialHappeningService: SocialHappeningService): Promise<SocialHappening> {
    return socialHappeningService.get(userId, args.happeningId);
  }

  @Mutation(() => SocialHappening, { description: 'startTime before endTime; guestIds are your people.' })
  createSocialHappening(@Args(() => CreateSocialHappeningArgs) args: CreateSocialHappeningArgs, @CurrentUserId() userId: string, @Service(SocialHappeningService) socialHappeningService: SocialHappeningService): Promise<SocialHappening> {
    return socialHappeningService.create(userId, args);
  }

  @Mutation(() => SocialHappening, { description: 'guestIds and itemIds given replace the lists.' })
  updateSocialHappening(@Args(() => UpdateSocialHappeningArgs) args: UpdateSocialHappeningArgs, @CurrentUserId() userId: string, @Service(SocialHappeningService) socialHappeningService: SocialHappeningService): Promise<SocialHappening> {
    const { happeningId, ...changes } = args;
    return socialHappeningService.update(userId, happeningId, changes);
  }

  @Mutation(() => Deleted, { description: 'Transactions that named it keep their row without the link.' })
  deleteSocialHappening(@Args(() => SocialHappeningIdArgs) args: SocialHappeningIdArgs, @CurrentUserId() userId: string, @Service(SocialHappeningService) socialHappeningService: SocialHappeningService): Promise<Deleted> {
    return socialHappeningService.delete(userId, args.happeningId);
  }
}

/** A day's happenings (a day is reached only by its owner). */
@Resolver(() => Day)
export class DaySocialResolver {
  @FieldResolver(() => [SocialHappening], { description: 'By start time.' })
  socialHappenings(@Root() day: Day, @Ctx() ctx: AppContext): Promise<SocialHappening[]> {
    return ctx.loaders.social.happeningsByDayId.load(day.id);
  }
}
