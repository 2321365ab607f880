import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Anonymous } from '../core/authorization.js';
import type { AppContext, Authenticated } from '../core/context.js';
import { CurrentSession, CurrentUser } from '../core/current-user.js';
import {
  AuthPayload,
  ChangePasswordArgs,
  CredentialsArgs,
  EmailArgs,
  LoginArgs,
  MessagePayload,
  ResetPasswordArgs,
  TokenArgs,
} from './auth.types.js';
import { AuthService, type StartedSession } from './auth.service.js';
import { SESSION_COOKIE, SESSION_TTL_MS } from './session-token.js';
import { User } from './user.entity.js';
import { Service } from '../core/request-services.js';

function signIn(ctx: AppContext, session: StartedSession): AuthPayload {
  ctx.http.setCookie(SESSION_COOKIE, session.token, { maxAgeMs: SESSION_TTL_MS });
  return { user: session.user };
}

@Authorized()
@Resolver()
export class AuthResolver {
  @Query(() => User, { description: 'The signed-in user.' })
  me(@CurrentUser() user: User): User {
    return user;
  }

  @Mutation(() => AuthPayload)
  @Anonymous()
  async register(@Args(() => CredentialsArgs) args: CredentialsArgs, @Service(AuthService) authService: AuthService, @Ctx() ctx: AppContext): Promise<AuthPayload> {
    return signIn(ctx, await authService.register(args.email, args.password));
  }

  @Mutation(() => AuthPayload)
  @Anonymous()
  async login(@Args(() => LoginArgs) args: LoginArgs, @Service(AuthService) authService: AuthService, @Ctx() ctx: AppContext): Promise<AuthPayload> {
    return signIn(ctx, await authService.login(args.email, args.password));
  }

  @Mutation(() => MessagePayload)
  @Anonymous()
  async logout(@Service(AuthService) authService: AuthService, @Ctx() ctx: AppContext): Promise<MessagePayload> {
    await authService.logout(ctx.auth ? { userId: ctx.auth.user.id, sessionId: ctx.auth.sessionId } : undefined);
    ctx.http.clearCookie(SESSION_COOKIE);
    return { message: 'Signed out' };
  }

  @Mutation(() => MessagePayload)
  @Anonymous()
  async requestPasswordReset(@Args(() => EmailArgs) args: EmailArgs, @Service(AuthService) authService: AuthService): Promise<MessagePayload> {
    await authService.requestPasswordReset(args.email);
    return { message: 'If this email is registered, a reset link has been sent' };
  }

  @Mutation(() => MessagePayload)
  @Anonymous()
  async resetPassword(@Args(() => ResetPasswordArgs) args: ResetPasswordArgs, @Service(AuthService) authService: AuthService): Promise<MessagePayload> {
    await authService.resetPassword(args.token, args.newPassword);
    return { message: 'Password reset; sign in with the new password' };
  }

  @Mutation(() => MessagePayload)
  async changePassword(@Args(() => ChangePasswordArgs) args: ChangePasswordArgs, @CurrentSession() auth: Authenticated, @Service(AuthService) authService: AuthService): Promise<MessagePayload> {
    await authService.changePassword(auth.user.id, auth.sessionId, args.currentPassword, args.newPassword, {
      endConnectorGrants: args.endConnectorGrants ?? false,
      revokeApiKeys: args.revokeApiKeys ?? false,
    });
    return { message: 'Password changed; other sessions were signed out' };
  }

  @Mutation(() => AuthPayload)
  @Anonymous()
  async verifyEmail(@Args(() => TokenArgs) args: TokenArgs, @Service(AuthService) authService: AuthService): Promise<AuthPayload> {
    return { user: await authService.verifyEmail(args.token) };
  }

  @Mutation(() => MessagePayload)
  @Anonymous()
  async resendVerification(@Args(() => EmailArgs) args: EmailArgs, @Service(AuthService) authService: AuthService): Promise<MessagePayload> {
    await authService.resendVerification(args.email);
    return { message: 'If this email needs verifying, a new link has been sent' };
  }
}
