import { Field, ID, ObjectType } from 'type-graphql';
import { JSONObjectResolver } from 'graphql-scalars';
import { DateTimeISO } from '../core/scalars.js';

@ObjectType('SyncRecordGroup', { simpleResolvers: true, description: 'Changed records of one type, as they are now.' })
export class SyncRecordGroupView {
  @Field(() => String, { description: 'The record type, e.g. Task, WaterIntake, Note (the entity names of the account export).' })
  type!: string;

  @Field(() => [JSONObjectResolver], { description: "Each record's stored fields (as the account export writes them), with its `id`." })
  records!: Record<string, unknown>[];
}

@ObjectType('SyncTombstone', { simpleResolvers: true, description: 'A record deleted (or moved to the trash) since the cursor: drop it.' })
export class SyncTombstoneView {
  @Field(() => String)
  type!: string;

  @Field(() => ID)
  id!: string;

  @Field(() => DateTimeISO)
  deletedAt!: Date;
}

@ObjectType('SyncPage', { simpleResolvers: true, description: 'One page of the change feed (docs/sync.md).' })
export class SyncPageView {
  @Field(() => [SyncRecordGroupView], { description: 'Records created or updated since the cursor, by type, with their current state.' })
  changes!: SyncRecordGroupView[];

  @Field(() => [SyncTombstoneView], { description: 'Records deleted since the cursor.' })
  deleted!: SyncTombstoneView[];

  @Field(() => String, { description: 'Ask from this cursor next (store it once the page is applied).' })
  cursor!: string;

  @Field(() => Boolean, { description: 'More changes wait: ask again from `cursor` at once.' })
  hasMore!: boolean;
}
