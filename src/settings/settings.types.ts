import { ArgsType, Field, Int } from 'type-graphql';
import { ArrayMaxSize, ArrayMinSize, IsString, Matches, MaxLength, MinLength, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { isValidTimeZone } from '../core/dates.js';
import { StorableText } from '../core/storable-text.js';
import { IfPresent } from '../core/validation/if-present.js';
import { Money } from '../core/money.js';
import { WholeNumber } from '../core/validation/numbers.js';
import { MAX_TRASH_RETENTION_DAYS } from './user-settings.entity.js';

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = (field: string) => Matches(HH_MM, { message: `${field} must be a time HH:MM (00:00-23:59)` });

@ValidatorConstraint({ name: 'timeZone' })
class IsTimeZone implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && value.length <= 64 && isValidTimeZone(value);
  }
  defaultMessage(): string {
    return 'timezone must be an IANA time zone name such as Europe/Paris';
  }
}

/** Money arrives as exact decimal text (the Money scalar); the threshold must be above zero. */
@ValidatorConstraint({ name: 'positiveMoney' })
class IsPositiveMoney implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && !value.startsWith('-') && /[1-9]/.test(value);
  }
  defaultMessage(): string {
    return 'largeExpenseThreshold must be above 0';
  }
}

@ArgsType()
export class UpdateSettingsArgs {
  // Every setting has a value: an explicit null is refused (400 naming it), absent leaves it as it is.
  @Field(() => [String], { nullable: true })
  @IfPresent('weeklySplitLabels')
  @ArrayMinSize(1)
  @ArrayMaxSize(14)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(50, { each: true })
  @StorableText('weeklySplitLabels', { each: true })
  weeklySplitLabels?: string[];

  @Field(() => String, { nullable: true }) @IfPresent('wakeTime') @hhmm('wakeTime') wakeTime?: string;
  @Field(() => String, { nullable: true }) @IfPresent('inBedTime') @hhmm('inBedTime') inBedTime?: string;
  @Field(() => String, { nullable: true }) @IfPresent('lightsOutTime') @hhmm('lightsOutTime') lightsOutTime?: string;
  @Field(() => String, { nullable: true }) @IfPresent('stressWeekWakeTime') @hhmm('stressWeekWakeTime') stressWeekWakeTime?: string;
  @Field(() => String, { nullable: true }) @IfPresent('stressWeekInBedTime') @hhmm('stressWeekInBedTime') stressWeekInBedTime?: string;
  @Field(() => String, { nullable: true }) @IfPresent('stressWeekLightsOutTime') @hhmm('stressWeekLightsOutTime') stressWeekLightsOutTime?: string;

  @Field(() => String, { nullable: true })
  @IfPresent('timezone')
  @Validate(IsTimeZone)
  timezone?: string;

  @Field(() => Money, { nullable: true, description: 'Positive, for example 100.' })
  @IfPresent('largeExpenseThreshold')
  @Validate(IsPositiveMoney)
  largeExpenseThreshold?: string;

  @Field(() => Int, { nullable: true, description: `Days a deleted record stays restorable (1-${MAX_TRASH_RETENTION_DAYS}).` })
  @IfPresent('trashRetentionDays')
  @WholeNumber(1, MAX_TRASH_RETENTION_DAYS)
  trashRetentionDays?: number;
}
