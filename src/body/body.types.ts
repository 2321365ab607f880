import { ArgsType, Field, Float } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, LocalDate, UUID } from '../core/scalars.js';
import { BodyMeasurement } from './body-measurement.entity.js';
import { OptionalText } from '../core/validation/text.js';
import { BoundedNumber } from '../core/validation/numbers.js';

/** Upper bound shared by the session API and the Public API (one rule for both). */
export const BODY_WEIGHT_MAX_KG = 1_000;
/** Body fat in percent; waist and hip girths in centimetres; a measurement's notes. */
export const BODY_FAT_MAX = 100;
export const GIRTH_MAX_CM = 1_000;
export const BODY_NOTES_MAX = 10_000;

/** The wording of the measurement rules, one for the GraphQL and REST arguments below and the connector's tools. */
export const BODY_MESSAGES = {
  positive: (field: string) => `${field} must be positive`,
  range: (field: string, min: number, max: number) => `${field} must be ${min} to ${max}`,
  atMostKg: (field: string, max: number) => `${field} must be at most ${max} kg`,
};

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
  @BoundedNumber(0.001, BODY_WEIGHT_MAX_KG, { min: BODY_MESSAGES.positive('weight'), max: BODY_MESSAGES.atMostKg('weight', BODY_WEIGHT_MAX_KG) })
  weight?: number;

  @Field(() => Float, { nullable: true, description: 'Percent, 0-100.' })
  @IsOptional()
  @BoundedNumber(0, BODY_FAT_MAX, { min: BODY_MESSAGES.range('bodyFat', 0, BODY_FAT_MAX), max: BODY_MESSAGES.range('bodyFat', 0, BODY_FAT_MAX) })
  bodyFat?: number;

  @Field(() => Float, { nullable: true, description: 'Centimetres, above 0.' })
  @IsOptional()
  @BoundedNumber(0.001, GIRTH_MAX_CM, { min: BODY_MESSAGES.positive('waist') })
  waist?: number;

  @Field(() => Float, { nullable: true, description: 'Centimetres, above 0.' })
  @IsOptional()
  @BoundedNumber(0.001, GIRTH_MAX_CM, { min: BODY_MESSAGES.positive('hip') })
  hip?: number;

  @Field(() => String, { nullable: true })
  @OptionalText(BODY_NOTES_MAX)
  notes?: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'Defaults to now.' })
  measuredAt?: Date;
}

export const BodyMeasurementPage = Paginated(BodyMeasurement, 'BodyMeasurementPage');
export type BodyMeasurementPage = InstanceType<typeof BodyMeasurementPage>;
