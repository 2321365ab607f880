import type { EntityManager } from '@mikro-orm/postgresql';
import { WebauthnChallenge, type WebauthnChallengePurpose } from './webauthn-challenge.entity.js';

/** Long enough for a person to find their phone or key; WebAuthn's own default timeout is 5 minutes too. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** Stores a challenge just handed out (and drops expired ones, so unfinished ceremonies do not pile up). */
export async function issueChallenge(em: EntityManager, purpose: WebauthnChallengePurpose, challenge: string, userId: string | null): Promise<WebauthnChallenge> {
  await em.nativeDelete(WebauthnChallenge, { expiresAt: { $lte: new Date() } });
  const row = em.create(WebauthnChallenge, { purpose, challenge, userId, expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS) });
  await em.flush();
  return row;
}

/**
 * Takes the user's live registration challenge with this value, once: the delete is the claim, so of
 * two requests carrying the same response only one gets `true`.
 */
export async function consumeRegistrationChallenge(em: EntityManager, userId: string, challenge: string): Promise<boolean> {
  const taken = await em.nativeDelete(WebauthnChallenge, { userId, purpose: 'registration', challenge, expiresAt: { $gt: new Date() } });
  return taken === 1;
}

/** Takes a live sign-in challenge by its id, once; its value, or null when unknown, used or expired. */
export async function consumeSignInChallenge(em: EntityManager, id: string): Promise<string | null> {
  const row = await em.findOne(WebauthnChallenge, { id, purpose: 'sign_in', expiresAt: { $gt: new Date() } });
  if (!row) return null;
  const taken = await em.nativeDelete(WebauthnChallenge, { id: row.id });
  return taken === 1 ? row.challenge : null;
}
