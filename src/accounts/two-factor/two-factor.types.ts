import { IsString, MaxLength, MinLength } from 'class-validator';
import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { DateTimeISO } from '../../core/scalars.js';
import { OptionalText, Text } from '../../core/validation/text.js';

/** Longest a code may be: a six-digit TOTP code or a recovery code with dashes and spaces. */
const CODE_MAX = 40;

@ObjectType({ simpleResolvers: true, description: 'Two-factor sign-in of the signed-in person.' })
export class TwoFactorStatus {
  @Field(() => Boolean, { description: 'Whether signing in with the password also asks for an authenticator code.' })
  enabled!: boolean;

  @Field(() => DateTimeISO, { nullable: true })
  enabledAt!: Date | null;

  @Field(() => Int, { description: 'Unused recovery codes (0 when two-factor is off).' })
  recoveryCodesLeft!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A TOTP enrolment begun: add it to the authenticator app, then confirm with its first code.' })
export class TotpEnrolment {
  @Field(() => String, { description: 'The secret in base32, to type in when the QR code cannot be scanned.' })
  secret!: string;

  @Field(() => String, { description: 'The `otpauth://totp/…` URI (issuer "Life Planner", label the email).' })
  otpauthUri!: string;

  @Field(() => String, { description: 'The URI as a QR code: an SVG `data:` URL for an `<img src>`.' })
  qrCodeDataUrl!: string;
}

@ObjectType({ simpleResolvers: true })
export class RecoveryCodes {
  @Field(() => [String], { description: 'Ten one-time codes that stand in for the authenticator. Shown this once: only their hashes are kept.' })
  recoveryCodes!: string[];
}

@ArgsType()
export class TotpCodeArgs {
  @Field(() => String, { description: 'The six-digit code the authenticator shows now.' })
  @IsString()
  @MinLength(1)
  @MaxLength(CODE_MAX)
  code!: string;
}

@ArgsType()
export class PasswordAndCodeArgs {
  @Field(() => String)
  @Text(256)
  password!: string;

  @Field(() => String, { description: 'The authenticator code, or one unused recovery code (it is used up).' })
  @IsString()
  @MinLength(1)
  @MaxLength(CODE_MAX)
  code!: string;
}

@ArgsType()
export class CompleteSignInArgs {
  @Field(() => String, { description: '`details.challengeToken` of the SECOND_FACTOR_REQUIRED answer of login (valid 5 minutes, single use).' })
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  challengeToken!: string;

  @Field(() => String, { nullable: true, description: 'The six-digit authenticator code (or give recoveryCode).' })
  @OptionalText(CODE_MAX)
  code?: string | null;

  @Field(() => String, { nullable: true, description: 'One unused recovery code, instead of code; it is used up.' })
  @OptionalText(CODE_MAX)
  recoveryCode?: string | null;
}
