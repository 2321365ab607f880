import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { Day } from '../planning/day.entity.js';
import { BodyMeasurement } from './body-measurement.entity.js';
import { BodyMeasurementService } from './body-measurement.service.js';
import { BodyMeasurementPage, CreateBodyMeasurementArgs, ListBodyMeasurementsArgs } from './body.types.js';
import { Service } from '../core/request-services.js';

@Authorized()
@Resolver(() => BodyMeasurement)
export class BodyMeasurementResolver {
  @Query(() => BodyMeasurementPage, { description: 'Your measurements by time; filter by a date range of their days.' })
  bodyMeasurements(@Args(() => ListBodyMeasurementsArgs) args: ListBodyMeasurementsArgs, @CurrentUserId() userId: string, @Service(BodyMeasurementService) bodyMeasurementService: BodyMeasurementService): Promise<BodyMeasurementPage> {
    return bodyMeasurementService.list(userId, args);
  }

  @Mutation(() => BodyMeasurement, { description: 'At least one of weight, bodyFat, waist, hip.' })
  createBodyMeasurement(@Args(() => CreateBodyMeasurementArgs) args: CreateBodyMeasurementArgs, @CurrentUserId() userId: string, @Service(BodyMeasurementService) bodyMeasurementService: BodyMeasurementService): Promise<BodyMeasurement> {
    return bodyMeasurementService.create(userId, args);
  }
}

@Resolver(() => Day)
export class DayBodyResolver {
  @FieldResolver(() => [BodyMeasurement])
  bodyMeasurements(@Root() day: Day, @Ctx() ctx: AppContext): Promise<BodyMeasurement[]> {
    return ctx.loaders.body.measurementsByDayId.load(day.id);
  }
}
