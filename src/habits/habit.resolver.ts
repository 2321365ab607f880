import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { Service } from '../core/request-services.js';
import { Day } from '../planning/day.entity.js';
import { Week } from '../planning/week.entity.js';
import { HabitEntry } from './habit-entry.entity.js';
import { Habit } from './habit.entity.js';
import { HabitService } from './habit.service.js';
import {
  CreateHabitArgs,
  HabitDay,
  HabitDayPage,
  HabitEntryIdArgs,
  HabitEntryPage,
  HabitIdArgs,
  HabitPage,
  HabitsInWeekArgs,
  HabitsOnDayArgs,
  HabitStreak,
  HabitStreakPage,
  HabitStreaksArgs,
  HabitWeek,
  HabitWeekPage,
  ListHabitEntriesArgs,
  ListHabitsArgs,
  LogHabitEntryArgs,
  MarkHabitDayArgs,
  ReorderHabitsArgs,
  UpdateHabitArgs,
  DeleteHabitArgs,
} from './habit.types.js';

@Authorized()
@Resolver(() => Habit)
export class HabitResolver {
  @Query(() => HabitPage, { description: 'Your active habits in their order (archived: true for the archived ones).' })
  habits(@Args(() => ListHabitsArgs) args: ListHabitsArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitPage> {
    return habits.list(userId, args);
  }

  @Query(() => Habit)
  habit(@Args(() => HabitIdArgs) args: HabitIdArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Habit> {
    return habits.get(userId, args.habitId);
  }

  @Mutation(() => Habit, { description: 'At most 100 habits (archived ones count).' })
  createHabit(@Args(() => CreateHabitArgs) args: CreateHabitArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Habit> {
    return habits.create(userId, args);
  }

  @Mutation(() => Habit, { description: 'The kind stays as made; a new schedule drops the old one\'s fields.' })
  updateHabit(@Args(() => UpdateHabitArgs) args: UpdateHabitArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Habit> {
    const { habitId, expectedVersion, ...changes } = args;
    return habits.update(userId, habitId, changes, expectedVersion);
  }

  @Mutation(() => Deleted, { description: 'Deletes the habit with its entries and marks.' })
  deleteHabit(@Args(() => DeleteHabitArgs) args: DeleteHabitArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Deleted> {
    return habits.delete(userId, args.habitId, args.expectedVersion);
  }

  @Mutation(() => Habit, { description: 'Off the day and week reads, its history kept.' })
  archiveHabit(@Args(() => HabitIdArgs) args: HabitIdArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Habit> {
    return habits.archive(userId, args.habitId);
  }

  @Mutation(() => Habit)
  unarchiveHabit(@Args(() => HabitIdArgs) args: HabitIdArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Habit> {
    return habits.unarchive(userId, args.habitId);
  }

  @Mutation(() => [Habit], { description: 'The listed habits first, in that order; answers all your habits in the new order.' })
  reorderHabits(@Args(() => ReorderHabitsArgs) args: ReorderHabitsArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Habit[]> {
    return habits.reorder(userId, args.habitIds);
  }

  @Query(() => HabitEntryPage, { description: "A habit's entries, oldest first; filter by day or date range." })
  habitEntries(@Args(() => ListHabitEntriesArgs) args: ListHabitEntriesArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitEntryPage> {
    return habits.listEntries(userId, args);
  }

  @Mutation(() => HabitEntry, { description: 'Logs an entry on a day (default today in your time zone); at most 50 a day per habit.' })
  logHabitEntry(@Args(() => LogHabitEntryArgs) args: LogHabitEntryArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitEntry> {
    return habits.logEntry(userId, args);
  }

  @Mutation(() => Deleted, { description: 'Deletes an entry; XP its day earned is taken back when the day falls below the target.' })
  deleteHabitEntry(@Args(() => HabitEntryIdArgs) args: HabitEntryIdArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<Deleted> {
    return habits.deleteEntry(userId, args.entryId);
  }

  @Mutation(() => HabitDay, { description: 'Marks a habit SKIP or REST on a day (null clears): the day keeps the streak.' })
  markHabitDay(@Args(() => MarkHabitDayArgs) args: MarkHabitDayArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitDay> {
    return habits.markDay(userId, args);
  }

  @Query(() => HabitDayPage, { description: 'Your active habits on one day, each with its state.' })
  habitsOnDay(@Args(() => HabitsOnDayArgs) args: HabitsOnDayArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitDayPage> {
    return habits.stateForDay(userId, args.dayId, args);
  }

  @Query(() => HabitWeekPage, { description: 'Your active habits over the week holding startDate, Monday to Sunday.' })
  habitsInWeek(@Args(() => HabitsInWeekArgs) args: HabitsInWeekArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitWeekPage> {
    return habits.stateForWeek(userId, args.startDate, args);
  }

  @Query(() => HabitStreakPage, { description: "Your active habits' streaks on today, in the habits' order." })
  habitStreaks(@Args(() => HabitStreaksArgs) args: HabitStreaksArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitStreakPage> {
    return habits.streaks(userId, args);
  }

  @Query(() => HabitStreak)
  habitStreak(@Args(() => HabitIdArgs) args: HabitIdArgs, @CurrentUserId() userId: string, @Service(HabitService) habits: HabitService): Promise<HabitStreak> {
    return habits.streak(userId, args.habitId);
  }

  @FieldResolver(() => HabitStreak, { description: 'The streak on today (your time zone).' })
  streak(@Root() habit: Habit, @Ctx() ctx: AppContext): Promise<HabitStreak> {
    return ctx.loaders.habits.streakByHabit.load(habit);
  }
}

@Resolver(() => HabitEntry)
export class HabitEntryResolver {
  @FieldResolver(() => Habit)
  async habit(@Root() entry: HabitEntry, @Ctx() ctx: AppContext): Promise<Habit> {
    return (await ctx.loaders.habits.habitById.load(entry.habitId))!;
  }
}

/** A day's active habits with their states (a day is reached only by its owner). */
@Resolver(() => Day)
export class DayHabitsResolver {
  @FieldResolver(() => [HabitDay], { description: 'Your active habits on this day, each with its state (issue 37).' })
  habits(@Root() day: Day, @Ctx() ctx: AppContext): Promise<HabitDay[]> {
    return ctx.loaders.habits.habitDaysByDay.load(day);
  }
}

/** A week's active habits, Monday to Sunday. */
@Resolver(() => Week)
export class WeekHabitsResolver {
  @FieldResolver(() => [HabitWeek], { description: 'Your active habits over this week (issue 37).' })
  habits(@Root() week: Week, @Ctx() ctx: AppContext): Promise<HabitWeek[]> {
    return ctx.loaders.habits.habitWeeksByWeek.load(week);
  }
}
