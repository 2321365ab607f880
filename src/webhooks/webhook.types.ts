import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsBoolean, IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { OptionalText, Text } from '../core/validation/text.js';

export const URL_MAX = 2048;
export const EVENTS_MAX = 32;
export const EVENT_NAME_MAX = 64;

@ArgsType()
export class WebhookIdArgs {
  @Field(() => UUID)
  webhookId!: string;
}

@ArgsType()
export class ListWebhooksArgs extends PageArgs {}

@ArgsType()
export class CreateWebhookArgs {
  @Field(() => String, { description: 'HTTPS URL; hosts that are or resolve to non-public addresses are refused.' })
  @Text(URL_MAX, 'url')
  url!: string;

  @Field(() => [String], { description: 'Event names of the catalog (and `test`, for test deliveries).' })
  @IsArray()
  @ArrayNotEmpty({ message: 'events must name at least one event' })
  @ArrayMaxSize(EVENTS_MAX, { message: `events can name at most ${EVENTS_MAX} events` })
  @IsString({ each: true })
  @MaxLength(EVENT_NAME_MAX, { each: true, message: `an event name is at most ${EVENT_NAME_MAX} characters` })
  events!: string[];
}

@ArgsType()
export class UpdateWebhookArgs extends WebhookIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('url')
  @Text(URL_MAX, 'url')
  url?: string;

  @Field(() => [String], { nullable: true })
  @IfPresent('events')
  @IsArray()
  @ArrayNotEmpty({ message: 'events must name at least one event' })
  @ArrayMaxSize(EVENTS_MAX, { message: `events can name at most ${EVENTS_MAX} events` })
  @IsString({ each: true })
  @MaxLength(EVENT_NAME_MAX, { each: true, message: `an event name is at most ${EVENT_NAME_MAX} characters` })
  events?: string[];

  @Field(() => Boolean, { nullable: true, description: 'false pauses the webhook: no deliveries, pending retries stop.' })
  @IfPresent('active')
  @IsBoolean()
  active?: boolean;
}

@ArgsType()
export class ListDeliveriesArgs extends PageArgs {
  @Field(() => UUID)
  webhookId!: string;

  @Field(() => WebhookDeliveryStatus, { nullable: true })
  @IsOptional()
  @IsEnum(WebhookDeliveryStatus)
  status?: WebhookDeliveryStatus;

  @Field(() => String, { nullable: true })
  @OptionalText(EVENT_NAME_MAX)
  event?: string;
}

@ArgsType()
export class TestWebhookArgs extends WebhookIdArgs {
  @Field(() => String, { nullable: true, description: 'Event name to send (default `test`); sent only when the webhook subscribes to it.' })
  @OptionalText(EVENT_NAME_MAX)
  event?: string;
}

@ObjectType({ simpleResolvers: true })
export class WebhookStats {
  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  success!: number;

  @Field(() => Int)
  failed!: number;

  @Field(() => Int)
  pending!: number;
}

/** The creation answer: the only time the secret is shown. */
@ObjectType({ simpleResolvers: true })
export class CreatedWebhook {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  url!: string;

  @Field(() => [String])
  events!: string[];

  @Field(() => String, { description: 'The signing secret (`whsec_…`). Shown only now: store it.' })
  secret!: string;

  @Field(() => String)
  secretPrefix!: string;

  @Field(() => Boolean)
  active!: boolean;

  @Field(() => DateTimeISO)
  createdAt!: Date;

  @Field(() => DateTimeISO)
  updatedAt!: Date;
}

@ObjectType({ simpleResolvers: true })
export class WebhookTestResult {
  @Field(() => Boolean, { description: 'Whether a delivery was made.' })
  sent!: boolean;

  @Field(() => String)
  event!: string;

  @Field(() => String, { description: 'What happened, in a sentence.' })
  message!: string;

  @Field(() => WebhookDelivery, { nullable: true, description: 'The delivery after its first attempt (null when nothing was sent).' })
  delivery!: WebhookDelivery | null;
}

export const WebhookPage = Paginated(WebhookEndpoint, 'WebhookPage');
export type WebhookPage = InstanceType<typeof WebhookPage>;

export const WebhookDeliveryPage = Paginated(WebhookDelivery, 'WebhookDeliveryPage');
export type WebhookDeliveryPage = InstanceType<typeof WebhookDeliveryPage>;
