import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Day } from '../planning/day.entity.js';
import { CardioSession } from './cardio-session.entity.js';
import { MobilitySession } from './mobility-session.entity.js';
import { TrainingSession } from './training-session.entity.js';

/** A day's training, mobility and cardio sessions (a day is reached only by its owner). */
@Resolver(() => Day)
export class DayTrainingResolver {
  @FieldResolver(() => [TrainingSession])
  trainingSessions(@Root() day: Day, @Ctx() ctx: AppContext): Promise<TrainingSession[]> {
    return ctx.loaders.training.trainingSessionsByDayId.load(day.id);
  }

  @FieldResolver(() => [MobilitySession])
  mobilitySessions(@Root() day: Day, @Ctx() ctx: AppContext): Promise<MobilitySession[]> {
    return ctx.loaders.training.mobilitySessionsByDayId.load(day.id);
  }

  @FieldResolver(() => [CardioSession])
  cardioSessions(@Root() day: Day, @Ctx() ctx: AppContext): Promise<CardioSession[]> {
    return ctx.loaders.training.cardioSessionsByDayId.load(day.id);
  }
}
