import { ArgsType, Field, ObjectType } from 'type-graphql';
import { isEmail, IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { User } from './user.entity.js';
import { Text } from '../core/validation/text.js';

const PASSWORD_MIN = 8;
const PASSWORD_MAX = 256;

/** An email address, ignoring surrounding whitespace (the service trims and lower-cases it). */
function IsEmailAddress(): PropertyDecorator {
  return ValidateBy({
    name: 'isEmailAddress',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isEmail(value.trim()),
      defaultMessage: () => 'email must be a valid email address',
    },
  });
}

@ArgsType()
export class CredentialsArgs {
  @Field(() => String)
  @IsEmailAddress()
  @MaxLength(320)
  email!: string;

  @Field(() => String)
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `password must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  password!: string;
}

@ArgsType()
export class LoginArgs {
  @Field(() => String)
  @Text(320)
  email!: string;

  @Field(() => String)
  @Text(PASSWORD_MAX)
  password!: string;
}

@ArgsType()
export class EmailArgs {
  @Field(() => String)
  @IsEmailAddress()
  @MaxLength(320)
  email!: string;
}

@ArgsType()
export class TokenArgs {
  @Field(() => String)
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  token!: string;
}

@ArgsType()
export class ResetPasswordArgs extends TokenArgs {
  @Field(() => String)
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `newPassword must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  newPassword!: string;
}

@ArgsType()
export class ChangePasswordArgs {
  @Field(() => String)
  @Text(PASSWORD_MAX)
  currentPassword!: string;

  @Field(() => String)
  @IsString()
  @MinLength(PASSWORD_MIN, { message: `newPassword must be at least ${PASSWORD_MIN} characters` })
  @MaxLength(PASSWORD_MAX)
  newPassword!: string;

  @Field(() => Boolean, { nullable: true, description: 'Also revoke every connector grant (assistants connected over OAuth); default false.' })
  @IsOptional()
  @IsBoolean()
  endConnectorGrants?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Also revoke every Public API key; default false.' })
  @IsOptional()
  @IsBoolean()
  revokeApiKeys?: boolean | null;
}

@ObjectType({ simpleResolvers: true })
export class AuthPayload {
  @Field(() => User)
  user!: User;
}

@ObjectType({ simpleResolvers: true })
export class MessagePayload {
  @Field(() => String)
  message!: string;
}
