import { ArgsType, Field, Float } from 'type-graphql';
import { IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, LocalDate, UUID } from '../core/scalars.js';
import { BodyMeasurement } from './body-measurement.entity.js';

const FINITE = { allowNaN: false, allowInfinity: false } as const;

/** Upper bound shared by the session API and the Public API (one rule for both). */
export const BODY_WEIGHT_MAX_KG = 1_000;

@ArgsType()
export class ListBodyMeasurementsArgs extends PageArgs {
  @Field(() => LocalDate, { nullable: true, description: 'First day included, YYYY-MM-DD.' })
  startDate?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Last day included, YYYY-MM-DD.' })
  endDate?: string;
}

@ArgsType()
export class CreateBodyMeasurementArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => Float, { nullable: true, description: 'Kilograms, above 0.' })
  @IsOptional()
  @IsNumber(FINITE)
  @Min(0.001, { message: 'weight must be positive' })
  @Max(BODY_WEIGHT_MAX_KG, { message: `weight must be at most ${BODY_WEIGHT_MAX_KG} kg` })
  weight?: number;

  @Field(() => Float, { nullable: true, description: 'Percent, 0-100.' })
  @IsOptional()
  @IsNumber(FINITE)
  @Min(0, { message: 'bodyFat must be 0 to 100' })
  @Max(100, { message: 'bodyFat must be 0 to 100' })
  bodyFat?: number;

  @Field(() => Float, { nullable: true, description: 'Centimetres, above 0.' })
  @IsOptional()
  @IsNumber(FINITE)
  @Min(0.001, { message: 'waist must be positive' })
  @Max(1_000)
  waist?: number;

  @Field(() => Float, { nullable: true, description: 'Centimetres, above 0.' })
  @IsOptional()
  @IsNumber(FINITE)
  @Min(0.001, { message: 'hip must be positive' })
  @Max(1_000)
  hip?: number;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  notes?: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'Defaults to now.' })
  measuredAt?: Date;
}

export const BodyMeasurementPage = Paginated(BodyMeasurement, 'BodyMeasurementPage');
export type BodyMeasurementPage = InstanceType<typeof BodyMeasurementPage>;
