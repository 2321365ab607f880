import { ArrayMaxSize, ArrayNotEmpty, IsString } from 'class-validator';
import { ArgsType, Field } from 'type-graphql';
import { ALL_SCOPES } from '../scopes/connector-scopes.js';
import { UUID } from '../../core/scalars.js';

@ArgsType()
export class ConnectionIdArgs {
  @Field(() => UUID)
  connectionId!: string;
}

@ArgsType()
export class NarrowConnectionArgs {
  @Field(() => UUID)
  connectionId!: string;

  @Field(() => [String], {
    description: 'The scopes to keep: `<area>:read` or `<area>:write`, each within what the connection holds now (a wider grant needs a new consent).',
  })
  @ArrayNotEmpty({ message: 'scopes must not be empty (revoke the connection instead)' })
  @ArrayMaxSize(ALL_SCOPES.length * 2)
  @IsString({ each: true })
  scopes!: string[];
}
