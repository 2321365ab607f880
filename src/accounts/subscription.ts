import { Authorized } from 'type-graphql';
import type { User } from './user.entity.js';
import { SubscriptionRequiredError } from '../core/errors.js';

/** What a plan unlocks (operations.md: `free` has none of these, `pro` has all). */
export type PlanFeature = 'api_keys' | 'webhooks' | 'assistant_connector';

export function isPlanFeature(role: string): role is PlanFeature {
  return (PLAN_FEATURES.pro as readonly string[]).includes(role);
}

export const PLAN_FEATURES: Record<'free' | 'pro', readonly PlanFeature[]> = {
  free: [],
  pro: ['api_keys', 'webhooks', 'assistant_connector'],
};

/** The plan in force now: a plan past its expiry has lapsed back to `free`. */
export function activePlan(user: Pick<User, 'plan' | 'planExpiresAt'>, now = new Date()): 'free' | 'pro' {
  if (user.planExpiresAt && user.planExpiresAt.getTime() <= now.getTime()) return 'free';
  return user.plan;
}

export function hasFeature(user: Pick<User, 'plan' | 'planExpiresAt'>, feature: PlanFeature, now = new Date()): boolean {
  return PLAN_FEATURES[activePlan(user, now)].includes(feature);
}

/** Spec: API keys, webhooks and the assistant connector need an active subscription → 403 SUBSCRIPTION_REQUIRED. */
export function requireFeature(user: Pick<User, 'plan' | 'planExpiresAt'>, feature: PlanFeature): void {
  if (!hasFeature(user, feature)) throw new SubscriptionRequiredError(feature.replace(/_/g, ' '));
}

/**
 * Declares that an operation (or every operation of a resolver class) needs a plan with `feature`:
 * the auth checker refuses it with 403 SUBSCRIPTION_REQUIRED before the resolver runs, and the Session
 * API document lists that answer. The services keep their own `requireFeature` for their other callers.
 */
export function PlanGated(feature: PlanFeature): MethodDecorator & ClassDecorator {
  return Authorized(feature);
}
