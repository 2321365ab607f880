import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { IsBoolean, IsEnum, IsNumber, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import type { ReminderChannelName, ReminderKindName } from './reminder-kind.js';
import { Reminder, ReminderChannelValue, ReminderKindValue } from './reminder.entity.js';
import { ReminderDelivery, ReminderDeliveryStatus } from './reminder-delivery.entity.js';
import { PushSubscription } from './push-subscription.entity.js';
import { OptionalText, Text } from '../core/validation/text.js';
import { WholeNumber } from '../core/validation/numbers.js';

/** HH:MM, 00:00-23:59. */
export const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = (field: string) => Matches(HH_MM, { message: `${field} must be a time HH:MM (00:00-23:59)` });
/** At most a week before the moment. */
export const OFFSET_MINUTES_MAX = 10_080;
export const URL_MAX = 2048;

@ArgsType()
export class ReminderIdArgs {
  @Field(() => UUID)
  reminderId!: string;
}

@ArgsType()
export class ListRemindersArgs extends PageArgs {
  @Field(() => ReminderKindValue, { nullable: true })
  @IsOptional()
  @IsEnum(ReminderKindValue)
  kind?: ReminderKindName;

  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

@ArgsType()
export class CreateReminderArgs {
  @Field(() => ReminderKindValue)
  @IsEnum(ReminderKindValue)
  kind!: ReminderKindName;

  @Field(() => UUID, { nullable: true, description: 'The task, deadline, happening or person (kinds about a record); none for the daily kinds.' })
  @IsOptional()
  targetId?: string | null;

  @Field(() => ReminderChannelValue)
  @IsEnum(ReminderChannelValue)
  channel!: ReminderChannelName;

  @Field(() => Int, { nullable: true, description: `Minutes before the moment, 0-${OFFSET_MINUTES_MAX} (default 0).` })
  @IsOptional()
  @WholeNumber(0, OFFSET_MINUTES_MAX)
  offsetMinutes?: number | null;

  @Field(() => String, {
    nullable: true,
    description:
      "HH:MM in the user's time zone: required for task_at_time; birthday (default 09:00), evening_review (default 21:00), morning_brief (default: the wake target). The kinds timed by offsetMinutes (task_start, deadline, happening, bedtime_in_bed, bedtime_lights_out) refuse it (400 VALIDATION_ERROR naming localTime).",
  })
  @IsOptional()
  @IsString()
  @hhmm('localTime')
  localTime?: string | null;
}

@ArgsType()
export class UpdateReminderArgs extends ReminderIdArgs {
  @Field(() => ReminderChannelValue, { nullable: true })
  @IfPresent('channel')
  @IsEnum(ReminderChannelValue)
  channel?: ReminderChannelName;

  @Field(() => Int, { nullable: true })
  @IfPresent('offsetMinutes')
  @WholeNumber(0, OFFSET_MINUTES_MAX)
  offsetMinutes?: number;

  @Field(() => String, { nullable: true, description: 'HH:MM; null clears it (for kinds that do not need it); refused for the kinds timed by offsetMinutes.' })
  @IsOptional()
  @IsString()
  @hhmm('localTime')
  localTime?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'false pauses the reminder; true resumes it from its next occurrence.' })
  @IfPresent('active')
  @IsBoolean()
  active?: boolean;
}

@ObjectType({ simpleResolvers: true })
export class ReminderPage extends Paginated(Reminder, 'ReminderPage') {}

@ArgsType()
export class ListReminderDeliveriesArgs extends PageArgs {
  @Field(() => UUID)
  reminderId!: string;

  @Field(() => ReminderDeliveryStatus, { nullable: true })
  @IsOptional()
  @IsEnum(ReminderDeliveryStatus)
  status?: ReminderDeliveryStatus;
}

@ObjectType({ simpleResolvers: true })
export class ReminderDeliveryPage extends Paginated(ReminderDelivery, 'ReminderDeliveryPage') {}

// Notifications: the VAPID key, push subscriptions, settings.

@ObjectType({ simpleResolvers: true })
export class VapidPublicKey {
  @Field(() => String, { description: "The application server key for PushManager.subscribe({ applicationServerKey }) (base64url, uncompressed P-256 point)." })
  publicKey!: string;
}

@InputType()
export class PushSubscriptionKeysInput {
  @Field(() => String, { description: "The browser's P-256 public key (base64url)." })
  @Text(100)
  p256dh!: string;

  @Field(() => String, { description: 'The authentication secret (base64url, 16 bytes).' })
  @Text(50)
  auth!: string;
}

@ArgsType()
export class RegisterPushSubscriptionArgs {
  @Field(() => String, { description: "PushSubscription.endpoint: the push service's https URL." })
  @Text(URL_MAX, 'endpoint')
  endpoint!: string;

  @Field(() => PushSubscriptionKeysInput, { description: 'PushSubscription.toJSON().keys' })
  @ValidateNested()
  keys!: PushSubscriptionKeysInput;

  @Field(() => Float, { nullable: true, description: 'PushSubscription.expirationTime (milliseconds since 1970), if the browser gives one.' })
  @IsOptional()
  @IsNumber()
  expirationTime?: number | null;
}

@ArgsType()
export class PushSubscriptionIdArgs {
  @Field(() => UUID)
  subscriptionId!: string;
}

@ObjectType({ simpleResolvers: true })
export class PushSubscriptionPage extends Paginated(PushSubscription, 'PushSubscriptionPage') {}

@ArgsType()
export class UpdateNotificationSettingsArgs {
  @Field(() => String, { nullable: true, description: 'http(s) URL for the push_url channel (ntfy style); null removes it.' })
  @OptionalText(URL_MAX, 'pushUrl')
  pushUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'HH:MM; null (with quietHoursEnd) turns quiet hours off.' })
  @IsOptional()
  @IsString()
  @hhmm('quietHoursStart')
  quietHoursStart?: string | null;

  @Field(() => String, { nullable: true, description: 'HH:MM' })
  @IsOptional()
  @IsString()
  @hhmm('quietHoursEnd')
  quietHoursEnd?: string | null;
}
