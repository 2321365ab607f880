import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { Service } from '../core/request-services.js';
import { NotificationSettings } from './notification-settings.entity.js';
import { NotificationService } from './notification.service.js';
import { PushSubscription } from './push-subscription.entity.js';
import { Reminder } from './reminder.entity.js';
import { ReminderService } from './reminder.service.js';
import {
  CreateReminderArgs,
  ListReminderDeliveriesArgs,
  ListRemindersArgs,
  PushSubscriptionIdArgs,
  PushSubscriptionPage,
  RegisterPushSubscriptionArgs,
  ReminderDeliveryPage,
  ReminderIdArgs,
  ReminderPage,
  UpdateNotificationSettingsArgs,
  UpdateReminderArgs,
  VapidPublicKey,
} from './reminder.types.js';
import { PageArgs } from '../core/pagination.js';

@Authorized()
@Resolver(() => Reminder)
export class ReminderResolver {
  @Query(() => ReminderPage, { description: "The caller's reminders, oldest first." })
  reminders(@Args(() => ListRemindersArgs) args: ListRemindersArgs, @CurrentUserId() userId: string, @Service(ReminderService) reminders: ReminderService): Promise<ReminderPage> {
    return reminders.list(userId, args);
  }

  @Query(() => Reminder)
  reminder(@Args(() => ReminderIdArgs) args: ReminderIdArgs, @CurrentUserId() userId: string, @Service(ReminderService) reminders: ReminderService): Promise<Reminder> {
    return reminders.get(userId, args.reminderId);
  }

  @Mutation(() => Reminder, {
    description:
      "Checks the target (another user's is 404) and sets nextDueAt from the kind's first occurrence; a reminder that would never be sent is refused (400, rule reminder_no_occurrence).",
  })
  createReminder(@Args(() => CreateReminderArgs) args: CreateReminderArgs, @CurrentUserId() userId: string, @Service(ReminderService) reminders: ReminderService): Promise<Reminder> {
    return reminders.create(userId, args);
  }

  @Mutation(() => Reminder, { description: 'Change the channel, offsetMinutes, localTime, or pause/resume with active; a new time recomputes nextDueAt.' })
  updateReminder(@Args(() => UpdateReminderArgs) args: UpdateReminderArgs, @CurrentUserId() userId: string, @Service(ReminderService) reminders: ReminderService): Promise<Reminder> {
    const { reminderId, ...changes } = args;
    return reminders.update(userId, reminderId, changes);
  }

  @Mutation(() => Deleted, { description: 'Permanent, with its delivery history.' })
  deleteReminder(@Args(() => ReminderIdArgs) args: ReminderIdArgs, @CurrentUserId() userId: string, @Service(ReminderService) reminders: ReminderService): Promise<Deleted> {
    return reminders.delete(userId, args.reminderId);
  }

  @Query(() => ReminderDeliveryPage, { description: "A reminder's occurrences so far (sent, skipped, failed, pending), latest due first." })
  reminderDeliveries(
    @Args(() => ListReminderDeliveriesArgs) args: ListReminderDeliveriesArgs,
    @CurrentUserId() userId: string,
    @Service(ReminderService) reminders: ReminderService,
  ): Promise<ReminderDeliveryPage> {
    const { reminderId, ...filter } = args;
    return reminders.deliveries(userId, reminderId, filter);
  }
}

@Authorized()
@Resolver()
export class NotificationResolver {
  @Query(() => VapidPublicKey, { description: 'The VAPID public key to pass to PushManager.subscribe as applicationServerKey.' })
  async vapidPublicKey(@Service(NotificationService) notifications: NotificationService): Promise<VapidPublicKey> {
    return { publicKey: await notifications.vapidPublicKey() };
  }

  @Query(() => PushSubscriptionPage, { description: "The caller's Web Push subscriptions." })
  pushSubscriptions(@Args(() => PageArgs) args: PageArgs, @CurrentUserId() userId: string, @Service(NotificationService) notifications: NotificationService): Promise<PushSubscriptionPage> {
    return notifications.subscriptions(userId, args);
  }

  @Mutation(() => PushSubscription, { description: "Registers a browser's PushSubscription (its toJSON()); the same endpoint again replaces its keys (200)." })
  async registerPushSubscription(
    @Args(() => RegisterPushSubscriptionArgs) args: RegisterPushSubscriptionArgs,
    @CurrentUserId() userId: string,
    @Service(NotificationService) notifications: NotificationService,
    @Ctx() ctx: AppContext,
  ): Promise<PushSubscription> {
    const { subscription, created } = await notifications.subscribe(userId, args);
    if (!created) ctx.http.setStatus(200);
    return subscription;
  }

  @Mutation(() => Deleted)
  deletePushSubscription(@Args(() => PushSubscriptionIdArgs) args: PushSubscriptionIdArgs, @CurrentUserId() userId: string, @Service(NotificationService) notifications: NotificationService): Promise<Deleted> {
    return notifications.unsubscribe(userId, args.subscriptionId);
  }

  @Query(() => NotificationSettings, { description: 'The push URL and quiet hours.' })
  notificationSettings(@CurrentUserId() userId: string, @Service(NotificationService) notifications: NotificationService): Promise<NotificationSettings> {
    return notifications.settings(userId);
  }

  @Mutation(() => NotificationSettings, { description: 'Set the push URL (http or https; null removes it) and quiet hours (both HH:MM, or both null).' })
  updateNotificationSettings(
    @Args(() => UpdateNotificationSettingsArgs) args: UpdateNotificationSettingsArgs,
    @CurrentUserId() userId: string,
    @Service(NotificationService) notifications: NotificationService,
  ): Promise<NotificationSettings> {
    return notifications.updateSettings(userId, args);
  }
}
