import { PlanGated } from '../accounts/subscription.js';
import type { User } from '../accounts/user.entity.js';
import { Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUser } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { WebhookAttempt, WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookService } from './webhook.service.js';
import {
  CreatedWebhook,
  CreateWebhookArgs,
  ListDeliveriesArgs,
  ListWebhooksArgs,
  TestWebhookArgs,
  UpdateWebhookArgs,
  WebhookDeliveryPage,
  WebhookIdArgs,
  WebhookPage,
  WebhookStats,
  WebhookTestResult,
} from './webhook.types.js';
import { Service } from '../core/request-services.js';

@PlanGated('webhooks')
@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  @Query(() => WebhookPage, { description: "The caller's webhooks with their delivery statistics (needs a plan with webhooks)." })
  webhooks(@Args(() => ListWebhooksArgs) args: ListWebhooksArgs, @CurrentUser() user: User, @Service(WebhookService) webhookService: WebhookService): Promise<WebhookPage> {
    return webhookService.list(user, args);
  }

  @Mutation(() => CreatedWebhook, { description: 'The secret is returned only here.' })
  createWebhook(@Args(() => CreateWebhookArgs) args: CreateWebhookArgs, @CurrentUser() user: User, @Service(WebhookService) webhookService: WebhookService): Promise<CreatedWebhook> {
    return webhookService.create(user, args);
  }

  @Mutation(() => WebhookEndpoint, { description: 'Change url, events, or pause/resume with active.' })
  updateWebhook(@Args(() => UpdateWebhookArgs) args: UpdateWebhookArgs, @CurrentUser() user: User, @Service(WebhookService) webhookService: WebhookService): Promise<WebhookEndpoint> {
    const { webhookId, ...changes } = args;
    return webhookService.update(user, webhookId, changes);
  }

  @Mutation(() => Deleted, { description: 'Permanent, with the delivery history.' })
  deleteWebhook(@Args(() => WebhookIdArgs) args: WebhookIdArgs, @CurrentUser() user: User, @Service(WebhookService) webhookService: WebhookService): Promise<Deleted> {
    return webhookService.delete(user, args.webhookId);
  }

  @Query(() => WebhookDeliveryPage, { description: 'Delivery history of one webhook, newest first.' })
  webhookDeliveries(@Args(() => ListDeliveriesArgs) args: ListDeliveriesArgs, @CurrentUser() user: User, @Service(WebhookService) webhookService: WebhookService): Promise<WebhookDeliveryPage> {
    const { webhookId, ...filter } = args;
    return webhookService.deliveries(user, webhookId, filter);
  }

  @Mutation(() => WebhookTestResult, { description: 'Sends a test delivery when the webhook subscribes to the event (default `test`).' })
  testWebhook(@Args(() => TestWebhookArgs) args: TestWebhookArgs, @CurrentUser() user: User, @Service(WebhookService) webhookService: WebhookService): Promise<WebhookTestResult> {
    return webhookService.test(user, args.webhookId, args.event);
  }

  @FieldResolver(() => WebhookStats, { description: 'Delivery counts: total, success, failed, pending.' })
  stats(@Root() endpoint: WebhookEndpoint, @Ctx() ctx: AppContext): Promise<WebhookStats> {
    return ctx.loaders.webhooks.statsByWebhookId.load(endpoint.id);
  }
}

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @FieldResolver(() => [WebhookAttempt], { description: 'Every attempt: status code, response body (1000 characters at most), error.' })
  attemptHistory(@Root() delivery: WebhookDelivery, @Ctx() ctx: AppContext): Promise<WebhookAttempt[]> {
    return ctx.loaders.webhooks.attemptsByDeliveryId.load(delivery.id);
  }
}
