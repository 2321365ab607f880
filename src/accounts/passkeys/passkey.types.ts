import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { JSONObjectResolver } from 'graphql-scalars';
import { UUID } from '../../core/scalars.js';
import { RequiredText } from '../../core/validation/text.js';

export const PASSKEY_NAME_MAX = 100;
/** The largest token the sign-in step hands out is 43 characters; a little room, no more. */
const CHALLENGE_TOKEN_MAX = 512;

const CREDENTIAL_DESCRIPTION = 'The browser\'s answer as JSON: `PublicKeyCredential.toJSON()` (or @simplewebauthn/browser\'s result): `{ id, rawId, type, response: {…}, clientExtensionResults }`.';

@ArgsType()
export class FinishPasskeyRegistrationArgs {
  @Field(() => String, { description: `A label to tell passkeys apart ("Laptop", "Phone"), 1-${PASSKEY_NAME_MAX} characters.` })
  @RequiredText('name', PASSKEY_NAME_MAX)
  name!: string;

  @Field(() => JSONObjectResolver, { description: CREDENTIAL_DESCRIPTION })
  response!: Record<string, unknown>;
}

@ArgsType()
export class RenamePasskeyArgs {
  @Field(() => UUID)
  passkeyId!: string;

  @Field(() => String, { description: `1-${PASSKEY_NAME_MAX} characters.` })
  @RequiredText('name', PASSKEY_NAME_MAX)
  name!: string;
}

@ArgsType()
export class PasskeyIdArgs {
  @Field(() => UUID)
  passkeyId!: string;
}

@ArgsType()
export class FinishPasskeySignInArgs {
  @Field(() => UUID, { description: 'The `challengeId` of POST /auth/passkey-sign-in/options.' })
  challengeId!: string;

  @Field(() => JSONObjectResolver, { description: CREDENTIAL_DESCRIPTION })
  response!: Record<string, unknown>;
}

@ArgsType()
export class SecondStepTokenArgs {
  @Field(() => String, { description: 'The `challengeToken` of the SECOND_FACTOR_REQUIRED answer to the password.' })
  @IsString()
  @MinLength(1)
  @MaxLength(CHALLENGE_TOKEN_MAX)
  challengeToken!: string;
}

@ArgsType()
export class CompleteSignInWithPasskeyArgs extends SecondStepTokenArgs {
  @Field(() => JSONObjectResolver, { description: CREDENTIAL_DESCRIPTION })
  response!: Record<string, unknown>;
}

@ObjectType({ simpleResolvers: true, description: 'WebAuthn options for the browser.' })
export class PasskeyOptions {
  @Field(() => JSONObjectResolver, { description: 'Pass to `navigator.credentials.create()`/`get()` (through `PublicKeyCredential.parseCreationOptionsFromJSON`/`parseRequestOptionsFromJSON`, or @simplewebauthn/browser).' })
  options!: object;
}

@ObjectType({ simpleResolvers: true, description: 'WebAuthn options for a sign-in with a passkey alone.' })
export class PasskeySignInOptions extends PasskeyOptions {
  @Field(() => ID, { description: 'Send it back with the answer; valid once, for five minutes.' })
  challengeId!: string;
}
