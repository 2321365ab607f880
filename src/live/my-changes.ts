import type { LiveChange } from '../core/live/live-change.js';
import { liveTopic, type LiveTopic } from '../core/live/live-ticks.js';

/**
 * Rows a person's own feed leaves out: credentials, sign-in machinery and delivery bookkeeping are
 * not "my data" to refetch, and naming them would only tell a client that someone signed in.
 */
const NOT_IN_THE_FEED = new Set([
  'LoginSession', 'AuthToken', 'SignInChallenge', 'WebauthnChallenge', 'TotpCredential', 'RecoveryCode', 'Passkey', 'OidcIdentity',
  'ApiKey', 'OAuthCode', 'OAuthToken', 'OAuthConnection', 'OAuthClient', 'OutboxEvent', 'WebhookAttempt', 'WebhookDelivery', 'XpGrant',
]);

export function inMyFeed(change: LiveChange): boolean {
  return !NOT_IN_THE_FEED.has(change.entity);
}

/** Every change to a person's records but those above. */
export const MY_CHANGES_TOPIC: LiveTopic = { ...liveTopic('my-changes', []), readsCurrentState: false, affectedBy: inMyFeed };
