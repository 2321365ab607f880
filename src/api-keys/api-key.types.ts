import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { IsOptional } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, UUID } from '../core/scalars.js';
import { ApiKey } from './api-key.entity.js';
import { RequiredText } from '../core/validation/text.js';

export const API_KEY_NAME_MAX = 100;

@ArgsType()
export class ApiKeyIdArgs {
  @Field(() => UUID)
  keyId!: string;
}

@ArgsType()
export class ListApiKeysArgs extends PageArgs {}

@ArgsType()
export class CreateApiKeyArgs {
  @Field(() => String, { description: 'A label for the key, 1-100 characters.' })
  @RequiredText('name', API_KEY_NAME_MAX)
  name!: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'Optional expiry (ISO 8601, in the future).' })
  @IsOptional()
  expiresAt?: Date | null;
}

/** A key as created or rotated: the only time the full `key` is shown. */
@ObjectType({ simpleResolvers: true })
export class CreatedApiKey {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'The full key. It is shown only this once; store it now.' })
  key!: string;

  @Field(() => String)
  keyPrefix!: string;

  @Field(() => String)
  name!: string;

  @Field(() => DateTimeISO)
  createdAt!: Date;

  @Field(() => DateTimeISO, { nullable: true })
  expiresAt!: Date | null;
}

@ObjectType({ simpleResolvers: true })
export class ApiKeyMessage {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  message!: string;
}

export const ApiKeyPage = Paginated(ApiKey, 'ApiKeyPage');
export type ApiKeyPage = InstanceType<typeof ApiKeyPage>;
