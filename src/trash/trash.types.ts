import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, UUID } from '../core/scalars.js';

@ObjectType({ simpleResolvers: true, description: 'A deleted record, restorable until `purgeAt` (docs/trash.md).' })
export class TrashEntry {
  @Field(() => ID, { description: 'The trash entry\'s own id (restore and delete forever take it).' })
  id!: string;

  @Field(() => String, { description: 'task, projectTask, note, record, person, transaction, habit or file.' })
  kind!: string;

  @Field(() => ID, { description: 'The id the record had, and has again once restored.' })
  recordId!: string;

  @Field(() => String, { description: "The record's title or name." })
  label!: string;

  @Field(() => DateTimeISO)
  deletedAt!: Date;

  @Field(() => DateTimeISO, { description: 'When the purge deletes it for good (deletedAt + your trash retention days).' })
  purgeAt!: Date;
}

export const TrashPage = Paginated(TrashEntry, 'TrashPage');
export type TrashPage = InstanceType<typeof TrashPage>;

@ArgsType()
export class ListTrashArgs extends PageArgs {}

@ArgsType()
export class TrashIdArgs {
  @Field(() => UUID)
  trashId!: string;
}

@ObjectType({ simpleResolvers: true })
export class RestoredEntry {
  @Field(() => String)
  kind!: string;

  @Field(() => ID, { description: 'The restored record, with its id as before.' })
  recordId!: string;
}

@ObjectType({ simpleResolvers: true })
export class TrashEmptied {
  @Field(() => Int, { description: 'How many entries were deleted for good.' })
  deleted!: number;
}
