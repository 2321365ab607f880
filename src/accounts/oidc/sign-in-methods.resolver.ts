import { Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Anonymous } from '../../core/authorization.js';
import type { AppContext } from '../../core/context.js';
import { OIDC_PATH } from './oidc-flow.js';

@ObjectType('OidcSignInMethod', { simpleResolvers: true, description: 'Single sign-on through the OpenID Connect provider this service is configured with.' })
export class OidcSignInMethod {
  @Field(() => String, { description: 'What the sign-in button says (OIDC_BUTTON_LABEL).' })
  label!: string;

  @Field(() => String, { description: 'Where the button sends the browser: GET, add `?returnTo=/path` to land there afterwards.' })
  startPath!: string;
}

@ObjectType('SignInMethods', { simpleResolvers: true, description: 'Which ways of signing in this service offers, for sign-in forms.' })
export class SignInMethods {
  @Field(() => Boolean, { description: 'Email and password (false with PASSWORD_SIGN_IN_DISABLED).' })
  password!: boolean;

  @Field(() => OidcSignInMethod, { nullable: true, description: 'Null when single sign-on is not configured.' })
  oidc!: OidcSignInMethod | null;

  @Field(() => Boolean, { description: 'Signing in with a passkey.' })
  passkeys!: boolean;
}

@Resolver()
export class SignInMethodsResolver {
  /** From the settings and the built-in modules only: no database query. */
  @Query(() => SignInMethods, { description: 'The sign-in methods this service offers (no session needed).' })
  @Anonymous()
  signInMethods(@Ctx() ctx: AppContext): SignInMethods {
    const { config } = ctx.deps;
    return {
      password: !config.passwordSignInDisabled,
      oidc: config.oidc ? { label: config.oidc.buttonLabel, startPath: `${OIDC_PATH}/start` } : null,
      // The passkeys module is there when its entity is registered (as second-step.ts asks it).
      passkeys: Boolean(ctx.em.getMetadata().find('Passkey')),
    };
  }
}
