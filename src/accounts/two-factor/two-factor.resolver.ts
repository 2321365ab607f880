import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Anonymous } from '../../core/authorization.js';
import type { AppContext } from '../../core/context.js';
import { CurrentUser, CurrentUserId } from '../../core/current-user.js';
import { Service } from '../../core/request-services.js';
import { AuthPayload, MessagePayload } from '../auth.types.js';
import { SESSION_COOKIE, SESSION_TTL_MS } from '../session-token.js';
import { withRetryAfter } from '../sign-in/second-factor-lockout.js';
import type { User } from '../user.entity.js';
import { TwoFactorService } from './two-factor.service.js';
import { CompleteSignInArgs, PasswordAndCodeArgs, RecoveryCodes, TotpCodeArgs, TotpEnrolment, TwoFactorStatus } from './two-factor.types.js';

/** TOTP two-factor: enrolment, recovery codes, turning it off, and the sign-in's second step. */
@Authorized()
@Resolver()
export class TwoFactorResolver {
  @Query(() => TwoFactorStatus, { description: 'Whether two-factor sign-in is on, and how many recovery codes are left.' })
  twoFactor(@CurrentUserId() userId: string, @Service(TwoFactorService) twoFactor: TwoFactorService): Promise<TwoFactorStatus> {
    return twoFactor.status(userId);
  }

  @Mutation(() => TotpEnrolment, { description: 'Begins enrolling an authenticator app (TOTP): scan the QR code, then confirm with its first code. Starting again replaces an unconfirmed enrolment.' })
  startTotpEnrolment(@CurrentUser() user: User, @Service(TwoFactorService) twoFactor: TwoFactorService): Promise<TotpEnrolment> {
    return twoFactor.startEnrolment(user);
  }

  @Mutation(() => RecoveryCodes, { description: 'Confirms the enrolment with the authenticator\'s current code: two-factor sign-in is on from now. Answers ten recovery codes, shown this once.' })
  async confirmTotpEnrolment(@Args(() => TotpCodeArgs) args: TotpCodeArgs, @CurrentUser() user: User, @Service(TwoFactorService) twoFactor: TwoFactorService): Promise<RecoveryCodes> {
    return { recoveryCodes: await twoFactor.confirmEnrolment(user, args.code) };
  }

  @Mutation(() => RecoveryCodes, { description: 'Replaces the recovery codes (the old ones stop working); needs the password and a code.' })
  async regenerateRecoveryCodes(@Args(() => PasswordAndCodeArgs) args: PasswordAndCodeArgs, @CurrentUser() user: User, @Service(TwoFactorService) twoFactor: TwoFactorService): Promise<RecoveryCodes> {
    return { recoveryCodes: await twoFactor.regenerateRecoveryCodes(user, args.password, args.code) };
  }

  @Mutation(() => MessagePayload, { description: 'Turns two-factor sign-in off; needs the password and a code (authenticator or recovery code).' })
  async disableTotp(@Args(() => PasswordAndCodeArgs) args: PasswordAndCodeArgs, @CurrentUser() user: User, @Service(TwoFactorService) twoFactor: TwoFactorService): Promise<MessagePayload> {
    await twoFactor.disable(user, args.password, args.code);
    return { message: 'Two-factor sign-in is off' };
  }

  @Mutation(() => AuthPayload, { description: 'Finishes a sign-in that answered SECOND_FACTOR_REQUIRED: the authenticator code or a recovery code for its challengeToken. Sets the session cookie.' })
  @Anonymous()
  async completeSignIn(@Args(() => CompleteSignInArgs) args: CompleteSignInArgs, @Service(TwoFactorService) twoFactor: TwoFactorService, @Ctx() ctx: AppContext): Promise<AuthPayload> {
    const session = await withRetryAfter(ctx, () => twoFactor.completeSignIn(args.challengeToken, args.code ?? undefined, args.recoveryCode ?? undefined));
    ctx.http.setCookie(SESSION_COOKIE, session.token, { maxAgeMs: SESSION_TTL_MS });
    return { user: session.user };
  }
}
