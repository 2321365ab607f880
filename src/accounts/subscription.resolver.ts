import { Authorized, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { DateTimeISO } from '../core/scalars.js';
import { CurrentUser } from '../core/current-user.js';
import { activePlan, PLAN_FEATURES } from './subscription.js';
import type { User } from './user.entity.js';

@ObjectType('SubscriptionInfo', { simpleResolvers: true, description: 'The caller\'s plan. There is no billing: operators set plans with the admin CLI.' })
export class SubscriptionInfo {
  @Field(() => String, { description: 'The plan given to the user: free or pro.' })
  plan!: string;

  @Field(() => String, { description: 'The plan in force now: a plan past expiresAt has lapsed to free.' })
  activePlan!: string;

  @Field(() => [String], { description: 'What the active plan unlocks: api_keys, webhooks, assistant_connector.' })
  features!: string[];

  @Field(() => DateTimeISO, { nullable: true, description: 'When the plan ends (null: no end).' })
  expiresAt!: Date | null;

  @Field(() => Boolean, { description: 'True when the plan has passed its expiry.' })
  lapsed!: boolean;
}

export function subscriptionOf(user: Pick<User, 'plan' | 'planExpiresAt'>, now = new Date()): SubscriptionInfo {
  const active = activePlan(user, now);
  return {
    plan: user.plan,
    activePlan: active,
    features: [...PLAN_FEATURES[active]],
    expiresAt: user.planExpiresAt ?? null,
    lapsed: active !== user.plan,
  };
}

@Authorized()
@Resolver()
export class SubscriptionResolver {
  @Query(() => SubscriptionInfo, { description: 'The caller\'s plan, the plan in force, its features and expiry.' })
  subscription(@CurrentUser() user: User): SubscriptionInfo {
    return subscriptionOf(user);
  }
}
