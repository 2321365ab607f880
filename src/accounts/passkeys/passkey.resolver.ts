import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Anonymous } from '../../core/authorization.js';
import type { AppContext } from '../../core/context.js';
import { CurrentUser, CurrentUserId } from '../../core/current-user.js';
import { Deleted } from '../../core/deleted.js';
import { Service } from '../../core/request-services.js';
import { AuthPayload } from '../auth.types.js';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../session-token.js';
import { withRetryAfter } from '../sign-in/second-factor-lockout.js';
import type { StartedSession } from '../sign-in/start-session.js';
import type { User } from '../user.entity.js';
import { Passkey } from './passkey.entity.js';
import { PasskeyRegistration } from './passkey-registration.js';
import { PasskeySecondFactor } from './passkey-second-factor.js';
import { PasskeySignIn } from './passkey-sign-in.js';
import { PasskeyService } from './passkeys.service.js';
import {
  CompleteSignInWithPasskeyArgs,
  FinishPasskeyRegistrationArgs,
  FinishPasskeySignInArgs,
  PasskeyIdArgs,
  PasskeyOptions,
  PasskeySignInOptions,
  RenamePasskeyArgs,
  SecondStepTokenArgs,
} from './passkey.types.js';

function signedIn(ctx: AppContext, session: StartedSession): AuthPayload {
  ctx.http.setCookie(SESSION_COOKIE, session.token, { maxAgeMs: SESSION_TTL_MS });
  return { user: session.user };
}

/** Passkeys: managing them (signed in) and signing in with one, alone or after the password. */
@Authorized()
@Resolver(() => Passkey)
export class PasskeyResolver {
  @Query(() => [Passkey], { description: 'The caller\'s passkeys, oldest first.' })
  passkeys(@CurrentUserId() userId: string, @Service(PasskeyService) passkeys: PasskeyService): Promise<Passkey[]> {
    return passkeys.list(userId);
  }

  @Mutation(() => PasskeyOptions, { description: 'Starts adding a passkey: options for `navigator.credentials.create()`, valid five minutes.' })
  async startPasskeyRegistration(@CurrentUser() user: User, @Service(PasskeyRegistration) registration: PasskeyRegistration): Promise<PasskeyOptions> {
    return { options: await registration.start(user) };
  }

  @Mutation(() => Passkey, { description: 'Finishes adding a passkey with the browser\'s answer to the registration options.' })
  finishPasskeyRegistration(@Args(() => FinishPasskeyRegistrationArgs) args: FinishPasskeyRegistrationArgs, @CurrentUserId() userId: string, @Service(PasskeyRegistration) registration: PasskeyRegistration): Promise<Passkey> {
    return registration.finish(userId, args.name, args.response);
  }

  @Mutation(() => Passkey)
  renamePasskey(@Args(() => RenamePasskeyArgs) args: RenamePasskeyArgs, @CurrentUserId() userId: string, @Service(PasskeyService) passkeys: PasskeyService): Promise<Passkey> {
    return passkeys.rename(userId, args.passkeyId, args.name);
  }

  @Mutation(() => Deleted, { description: 'The passkey stops signing in at once.' })
  deletePasskey(@Args(() => PasskeyIdArgs) args: PasskeyIdArgs, @CurrentUserId() userId: string, @Service(PasskeyService) passkeys: PasskeyService): Promise<Deleted> {
    return passkeys.remove(userId, args.passkeyId);
  }

  @Mutation(() => PasskeySignInOptions, { description: 'Starts a sign-in with a passkey alone (no e-mail): options for `navigator.credentials.get()` and the id to finish with.' })
  @Anonymous()
  startPasskeySignIn(@Service(PasskeySignIn) signIn: PasskeySignIn): Promise<PasskeySignInOptions> {
    return signIn.start();
  }

  @Mutation(() => AuthPayload, { description: 'Finishes a sign-in with a passkey alone and sets the session cookie (the passkey verified its user: two factors).' })
  @Anonymous()
  async finishPasskeySignIn(@Args(() => FinishPasskeySignInArgs) args: FinishPasskeySignInArgs, @Service(PasskeySignIn) signIn: PasskeySignIn, @Ctx() ctx: AppContext): Promise<AuthPayload> {
    return signedIn(ctx, await signIn.finish(args.challengeId, args.response));
  }

  @Mutation(() => PasskeyOptions, { description: 'A passkey as the second factor after the password: options listing the account\'s passkeys.' })
  @Anonymous()
  async startSecondFactorPasskey(@Args(() => SecondStepTokenArgs) args: SecondStepTokenArgs, @Service(PasskeySecondFactor) secondFactor: PasskeySecondFactor, @Ctx() ctx: AppContext): Promise<PasskeyOptions> {
    return { options: await withRetryAfter(ctx, () => secondFactor.start(args.challengeToken)) };
  }

  @Mutation(() => AuthPayload, { description: 'Finishes the sign-in with a passkey as the second factor and sets the session cookie.' })
  @Anonymous()
  async completeSignInWithPasskey(@Args(() => CompleteSignInWithPasskeyArgs) args: CompleteSignInWithPasskeyArgs, @Service(PasskeySecondFactor) secondFactor: PasskeySecondFactor, @Ctx() ctx: AppContext): Promise<AuthPayload> {
    return signedIn(ctx, await withRetryAfter(ctx, () => secondFactor.complete(args.challengeToken, args.response)));
  }
}
