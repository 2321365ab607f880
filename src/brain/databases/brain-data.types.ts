import { ExpectedVersion } from '../../core/validation/expected-version.js';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { JSONObjectResolver, JSONResolver } from 'graphql-scalars';
import { Paginated } from '../../core/pagination.js';
import { DateTimeISO, UUID } from '../../core/scalars.js';

/**
 * GraphQL types of Brain databases and records. The services (database.service.ts, record.service.ts)
 * keep every rule and answer plain views; these types describe those views. Free-form parts — property
 * definitions, record values, filters — are JSON objects, checked by the services.
 */

/** A database's name is at most this long (database.service.ts readName). */
export const DATABASE_NAME_MAX = 200;

@ObjectType('BrainDatabase', { simpleResolvers: true, description: 'A user-defined table: typed properties, records hold the values.' })
export class BrainDatabaseView {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => [JSONObjectResolver], {
    description:
      'Property definitions `{ key, name, type, options? }`; type is text, number, select, multi_select, date, checkbox, url, email or file (select types carry `options`).',
  })
  properties!: object[];

  @Field(() => DateTimeISO)
  createdAt!: string;

  @Field(() => DateTimeISO)
  updatedAt!: string;
}

@ObjectType('BrainRecord', { simpleResolvers: true, description: 'One row of a Brain database.' })
export class BrainRecordView {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  databaseId!: string;

  @Field(() => JSONObjectResolver, { description: 'Values by property key (form answers also carry `__respondentName`, `__quiz_*`).' })
  values!: Record<string, unknown>;

  @Field(() => ID, { nullable: true, description: 'The form whose answer made it, if any.' })
  formId!: string | null;

  @Field(() => DateTimeISO)
  createdAt!: string;

  @Field(() => DateTimeISO)
  updatedAt!: string;

  @Field(() => Int, { description: 'Goes up with every change; send it back as `expectedVersion` (REST: `If-Match`) so a write fails instead of overwriting a newer change (docs/concurrency.md).' })
  version!: number;
}

export const BrainRecordPage = Paginated(BrainRecordView, 'BrainRecordPage');
export type BrainRecordPage = InstanceType<typeof BrainRecordPage>;

@ObjectType('BrainDeleted', { simpleResolvers: true, description: 'What deleting a Brain database, record or form answers.' })
export class BrainDeleted {
  @Field(() => ID)
  id!: string;

  @Field(() => Boolean)
  deleted!: true;
}

@ArgsType()
export class BrainDatabaseIdArgs {
  @Field(() => UUID)
  databaseId!: string;
}

@ArgsType()
export class CreateBrainDatabaseArgs {
  @Field(() => String, { description: 'At most 200 characters.' })
  name!: string;

  @Field(() => [JSONObjectResolver], { nullable: true, description: 'Property definitions `{ key, name, type, options? }` (default none).' })
  properties?: object[];
}

@ArgsType()
export class UpdateBrainDatabaseArgs extends BrainDatabaseIdArgs {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => [JSONObjectResolver], { nullable: true, description: 'Replaces every property definition; values of removed keys stay on the records.' })
  properties?: object[];
}

@ArgsType()
export class BrainRecordIdArgs extends BrainDatabaseIdArgs {
  @Field(() => UUID)
  recordId!: string;
}

/** A delete that may name the `version` last read (docs/concurrency.md). */
@ArgsType()
export class DeleteBrainRecordArgs extends BrainRecordIdArgs {
  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class ListBrainRecordsArgs extends BrainDatabaseIdArgs {
  @Field(() => JSONResolver, {
    nullable: true,
    description:
      'Property key → wanted value (text, url, email: contains; multi_select: contains the option; others: equal). REST: `filter[<key>]=<value>` or `filter=<JSON object>`.',
  })
  filter?: unknown;

  @Field(() => String, { nullable: true, description: 'createdAt (default), updatedAt or a property key; records without the value come last.' })
  sort?: string;

  @Field(() => String, { nullable: true, description: 'asc or desc (default desc for createdAt/updatedAt, asc for a property).' })
  order?: string;

  @Field(() => Int, { nullable: true, description: 'Page number, from 1 (default 1).' })
  page?: number;

  @Field(() => Int, { nullable: true, description: 'Items per page (default 50; more than 100 counts as 100).' })
  limit?: number;
}

@ArgsType()
export class CreateBrainRecordArgs extends BrainDatabaseIdArgs {
  @Field(() => JSONObjectResolver, { nullable: true, description: 'Values by property key, typed by the property (default none).' })
  values?: Record<string, unknown>;
}

@ArgsType()
export class UpdateBrainRecordArgs extends BrainRecordIdArgs {
  @Field(() => JSONObjectResolver, { nullable: true, description: 'Merged: keys given replace their value, `null` removes one, keys left out stay.' })
  values?: Record<string, unknown>;

  @ExpectedVersion()
  expectedVersion?: number | null;
}
