import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUserId } from '../core/current-user.js';
import { Day } from '../planning/day.entity.js';
import { JournalEntry } from './journal-entry.entity.js';
import { JournalEntryService } from './journal-entry.service.js';
import { JournalQuestion } from './journal-question.entity.js';
import { JournalQuestionService } from './journal-question.service.js';
import {
  CreateJournalEntryArgs,
  CreateJournalQuestionArgs,
  JournalEntryIdArgs,
  JournalEntryPage,
  JournalQuestionIdArgs,
  JournalQuestionPage,
  ListJournalEntriesArgs,
  ListJournalQuestionsArgs,
  UpdateJournalEntryArgs,
  UpdateJournalQuestionArgs,
} from './journal.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => JournalQuestion)
export class JournalQuestionResolver {
  @Query(() => JournalQuestionPage, { description: 'The global questions, then your own, each by order.' })
  journalQuestions(@Args(() => ListJournalQuestionsArgs) args: ListJournalQuestionsArgs, @CurrentUserId() userId: string, @Service(JournalQuestionService) journalQuestionService: JournalQuestionService): Promise<JournalQuestionPage> {
    return journalQuestionService.list(userId, args);
  }

  @Query(() => JournalQuestion, { description: 'A global question or one of your own.' })
  journalQuestion(@Args(() => JournalQuestionIdArgs) args: JournalQuestionIdArgs, @CurrentUserId() userId: string, @Service(JournalQuestionService) journalQuestionService: JournalQuestionService): Promise<JournalQuestion> {
    return journalQuestionService.visible(userId, args.questionId);
  }

  @Mutation(() => JournalQuestion, { description: 'Adds a question of your own (shown after the global ones).' })
  createJournalQuestion(@Args(() => CreateJournalQuestionArgs) args: CreateJournalQuestionArgs, @CurrentUserId() userId: string, @Service(JournalQuestionService) journalQuestionService: JournalQuestionService): Promise<JournalQuestion> {
    return journalQuestionService.create(userId, args);
  }

  @Mutation(() => JournalQuestion, { description: 'Only your own questions can be changed; global ones answer NOT_FOUND.' })
  updateJournalQuestion(@Args(() => UpdateJournalQuestionArgs) args: UpdateJournalQuestionArgs, @CurrentUserId() userId: string, @Service(JournalQuestionService) journalQuestionService: JournalQuestionService): Promise<JournalQuestion> {
    const { questionId, ...changes } = args;
    return journalQuestionService.update(userId, questionId, changes);
  }

  @Mutation(() => Deleted, { description: 'Only your own questions can be deleted; their entries stay, with the question text as answered.' })
  deleteJournalQuestion(@Args(() => JournalQuestionIdArgs) args: JournalQuestionIdArgs, @CurrentUserId() userId: string, @Service(JournalQuestionService) journalQuestionService: JournalQuestionService): Promise<Deleted> {
    return journalQuestionService.delete(userId, args.questionId);
  }
}

@Authorized()
@Resolver(() => JournalEntry)
export class JournalEntryResolver {
  @Query(() => JournalEntryPage, { description: 'Your journal entries, oldest first; filter by day and question.' })
  journalEntries(@Args(() => ListJournalEntriesArgs) args: ListJournalEntriesArgs, @CurrentUserId() userId: string, @Service(JournalEntryService) journalEntryService: JournalEntryService): Promise<JournalEntryPage> {
    return journalEntryService.list(userId, args);
  }

  @Query(() => JournalEntry)
  journalEntry(@Args(() => JournalEntryIdArgs) args: JournalEntryIdArgs, @CurrentUserId() userId: string, @Service(JournalEntryService) journalEntryService: JournalEntryService): Promise<JournalEntry> {
    return journalEntryService.get(userId, args.entryId);
  }

  @Mutation(() => JournalEntry, { description: "The day's first entry completes its JOURNAL checklist item." })
  createJournalEntry(@Args(() => CreateJournalEntryArgs) args: CreateJournalEntryArgs, @CurrentUserId() userId: string, @Service(JournalEntryService) journalEntryService: JournalEntryService): Promise<JournalEntry> {
    return journalEntryService.create(userId, args);
  }

  @Mutation(() => JournalEntry)
  updateJournalEntry(@Args(() => UpdateJournalEntryArgs) args: UpdateJournalEntryArgs, @CurrentUserId() userId: string, @Service(JournalEntryService) journalEntryService: JournalEntryService): Promise<JournalEntry> {
    const { entryId, ...changes } = args;
    return journalEntryService.update(userId, entryId, changes);
  }

  @Mutation(() => Deleted, { description: "The day's JOURNAL checklist item stays as it is." })
  deleteJournalEntry(@Args(() => JournalEntryIdArgs) args: JournalEntryIdArgs, @CurrentUserId() userId: string, @Service(JournalEntryService) journalEntryService: JournalEntryService): Promise<Deleted> {
    return journalEntryService.delete(userId, args.entryId);
  }
}

/** A day's journal entries (a day is reached only by its owner). */
@Resolver(() => Day)
export class DayJournalResolver {
  @FieldResolver(() => [JournalEntry], { description: 'Oldest first.' })
  journalEntries(@Root() day: Day, @Ctx() ctx: AppContext): Promise<JournalEntry[]> {
    return ctx.loaders.journal.journalEntriesByDayId.load(day.id);
  }
}
