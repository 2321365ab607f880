import type { EntityManager } from '@mikro-orm/postgresql';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { AppContext, AppDeps } from '../../core/context.js';
import { InvalidCredentialsError, ValidationError } from '../../core/errors.js';
import { answerSecondStep, failSecondStep, finishSecondStep, hasPasskeys, loadSecondStep } from '../sign-in/second-step.js';
import { sessionMetaOf, startSession, type SessionMeta, type StartedSession } from '../sign-in/start-session.js';
import { assertionOptions, PASSKEY_REFUSED, verifyAssertion } from './passkey-assertion.js';

function noPasskeyStep(message: string): ValidationError {
  return new ValidationError(message, [{ path: ['challengeToken'], message }]);
}

/**
 * A passkey as the second factor after a password (src/accounts/sign-in/second-step.ts): the options
 * list only that account's credentials and the WebAuthn challenge is kept on the step's row. User
 * verification is only preferred here: the password was the first factor, the passkey proves the
 * device.
 */
export class PasskeySecondFactor {
  static forRequest(ctx: AppContext): PasskeySecondFactor {
    return new PasskeySecondFactor(ctx.em, ctx.deps, sessionMetaOf(ctx));
  }

  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppDeps,
    private readonly meta: SessionMeta,
  ) {}

  start(challengeToken: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return this.em.transactional(async (em) => {
      const step = await loadSecondStep(em, challengeToken);
      await this.deps.secondFactorLockout.ensureOpen(step.user.id);
      if (!(await hasPasskeys(em, step.user.id))) throw noPasskeyStep('This account has no passkey: answer with a code');
      const options = await assertionOptions(em, this.deps.config, { userId: step.user.id, userVerification: 'preferred' });
      step.webauthnChallenge = options.challenge;
      return options;
    });
  }

  async complete(challengeToken: string, response: Record<string, unknown>): Promise<StartedSession> {
    // A wrong answer must count against the step (and spend its WebAuthn challenge) even though it is
    // refused, so the transaction commits and the refusal is thrown after it.
    const outcome = await this.em.transactional(async (em): Promise<{ session: StartedSession } | { attemptsLeft: number }> => {
      const step = await answerSecondStep(em, this.deps, challengeToken, (row) => {
        if (!row.webauthnChallenge) throw noPasskeyStep('Ask for the passkey options of this step first');
      });
      const challenge = step.webauthnChallenge!;
      step.webauthnChallenge = null;
      try {
        await verifyAssertion(em, this.deps.config, response, { challenge, userId: step.user.id, requireUserVerification: false });
      } catch (error) {
        if (!(error instanceof InvalidCredentialsError)) throw error;
        return { attemptsLeft: await failSecondStep(this.deps, step) };
      }
      await finishSecondStep(this.deps, step);
      return { session: await startSession(em, this.deps, step.user, this.meta) };
    });
    // As a wrong code of the same step is refused (src/accounts/two-factor): how many answers it still takes.
    if (!('session' in outcome)) throw new InvalidCredentialsError(PASSKEY_REFUSED, { attemptsLeft: outcome.attemptsLeft });
    return outcome.session;
  }
}
