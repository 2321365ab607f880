import { ArgsType, Field } from 'type-graphql';
import { UUID } from '../../core/scalars.js';

@ArgsType()
export class ConnectionIdArgs {
  @Field(() => UUID)
  connectionId!: string;
}
