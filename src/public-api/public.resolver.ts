import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { API_CALLER } from '../core/authorization.js';
import type { AppContext } from '../core/context.js';
import { UnauthorizedError } from '../core/errors.js';
import { PublicApiService, type PublicCaller } from './public-api.service.js';
import {
  PublicBodyMetricsArgs,
  PublicBodyMetricsLogged,
  PublicCardioArgs,
  PublicCardioLogged,
  PublicExercise,
  PublicExerciseSearchArgs,
  PublicMeditationArgs,
  PublicMeditationLogged,
  PublicMoodArgs,
  PublicMoodLogged,
  PublicSleepArgs,
  PublicSleepLogged,
  PublicStepsArgs,
  PublicStepsLogged,
  PublicWaterArgs,
  PublicWaterLogged,
  PublicWorkoutArgs,
  PublicWorkoutLogged,
  PUBLIC_SEARCH_MAX,
} from './public.types.js';
import { Service } from '../core/request-services.js';
import { PublicHabit, PublicHabitLogged, PublicLogHabitArgs } from './public-habits.types.js';
import { QuickAddService } from '../quick-add/quick-add.service.js';
import { QuickAddArgs, QuickAddResult } from '../quick-add/quick-add.types.js';
import { QUICK_ADD_DESCRIPTION } from '../quick-add/quick-add.resolver.js';

/**
 * The caller of a Public API operation: the API key's owner on `/api/public/v1`, or the signed-in user
 * when the same operation is sent to /graphql with the session cookie (an API key never reaches
 * /graphql). Either way the write lands on that user's today.
 */
export function requirePublicCaller(ctx: AppContext): PublicCaller {
  if (ctx.apiKey) return { userId: ctx.apiKey.userId, timezone: ctx.apiKey.timezone };
  if (ctx.auth) return { userId: ctx.auth.user.id };
  throw new UnauthorizedError();
}

const TODAY = 'Logged on the caller\'s today (their time zone); `dayId` is never taken.';

@Authorized(API_CALLER)
@Resolver()
export class PublicApiResolver {
  @Query(() => [PublicExercise], { description: `GET /exercises/search: exercises of the caller's catalog whose name contains q, the first ${PUBLIC_SEARCH_MAX} by name.` })
  publicSearchExercises(@Args(() => PublicExerciseSearchArgs) args: PublicExerciseSearchArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicExercise[]> {
    return publicApiService.searchExercises(requirePublicCaller(ctx), args.q);
  }

  @Mutation(() => PublicWaterLogged, { description: `POST /water: logs water intake. ${TODAY}` })
  publicLogWater(@Args(() => PublicWaterArgs) args: PublicWaterArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicWaterLogged> {
    return publicApiService.logWater(requirePublicCaller(ctx), args);
  }

  @Mutation(() => PublicWorkoutLogged, { description: `POST /workouts: logs a training session. ${TODAY}` })
  publicLogWorkout(@Args(() => PublicWorkoutArgs) args: PublicWorkoutArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicWorkoutLogged> {
    return publicApiService.logWorkout(requirePublicCaller(ctx), args);
  }

  @Mutation(() => PublicStepsLogged, { description: `POST /steps: logs a step count. ${TODAY}` })
  publicLogSteps(@Args(() => PublicStepsArgs) args: PublicStepsArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicStepsLogged> {
    return publicApiService.logSteps(requirePublicCaller(ctx), args);
  }

  @Mutation(() => PublicMeditationLogged, { description: `POST /meditation: logs a meditation session. ${TODAY}` })
  publicLogMeditation(@Args(() => PublicMeditationArgs) args: PublicMeditationArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicMeditationLogged> {
    return publicApiService.logMeditation(requirePublicCaller(ctx), args);
  }

  @Mutation(() => PublicCardioLogged, { description: `POST /cardio: logs a cardio session (lunch slot rule applies). ${TODAY}` })
  publicLogCardio(@Args(() => PublicCardioArgs) args: PublicCardioArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicCardioLogged> {
    return publicApiService.logCardio(requirePublicCaller(ctx), args);
  }

  @Mutation(() => PublicMoodLogged, { description: `POST /mood: writes the day's mood and energy. ${TODAY}` })
  publicLogMood(@Args(() => PublicMoodArgs) args: PublicMoodArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicMoodLogged> {
    return publicApiService.logMood(requirePublicCaller(ctx), args);
  }

  @Mutation(() => PublicSleepLogged, { description: `POST /sleep: logs sleep and sets the day's sleepHours. ${TODAY}` })
  publicLogSleep(@Args(() => PublicSleepArgs) args: PublicSleepArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicSleepLogged> {
    return publicApiService.logSleep(requirePublicCaller(ctx), args);
  }

  @Mutation(() => PublicBodyMetricsLogged, { description: `POST /body-metrics: logs a body measurement. ${TODAY}` })
  publicLogBodyMetrics(@Args(() => PublicBodyMetricsArgs) args: PublicBodyMetricsArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicBodyMetricsLogged> {
    return publicApiService.logBodyMetrics(requirePublicCaller(ctx), args);
  }

  @Query(() => [PublicHabit], { description: 'GET /habits: the caller\'s active habits (at most 100, in their order) with their state on the caller\'s today; the ids POST /habits/{habitId}/entries takes.' })
  publicHabits(@Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicHabit[]> {
    return publicApiService.listHabits(requirePublicCaller(ctx));
  }

  @Mutation(() => PublicHabitLogged, { description: `POST /habits/{habitId}/entries: logs an entry of a habit (201), answering the day's state and the streak after it. Another person's habit answers 404; an archived habit, a wrong value for the kind or the 51st entry of a day 400. ${TODAY}` })
  publicLogHabit(@Args(() => PublicLogHabitArgs) args: PublicLogHabitArgs, @Service(PublicApiService) publicApiService: PublicApiService, @Ctx() ctx: AppContext): Promise<PublicHabitLogged> {
    return publicApiService.logHabit(requirePublicCaller(ctx), args);
  }

  @Mutation(() => QuickAddResult, { description: `POST /quick (201; 200 on a dry run). ${QUICK_ADD_DESCRIPTION} Dates are the key owner's (their time zone).` })
  async publicQuickAdd(@Args(() => QuickAddArgs) args: QuickAddArgs, @Service(QuickAddService) quickAdd: QuickAddService, @Ctx() ctx: AppContext): Promise<QuickAddResult> {
    const caller = requirePublicCaller(ctx);
    const answer = await quickAdd.add(caller.userId, args, { timezone: caller.timezone });
    if (answer.dryRun) ctx.http.setStatus(200);
    return answer;
  }
}
