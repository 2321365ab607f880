import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true })
export class BrainDatabaseRecordCount {
  @Field(() => ID)
  databaseId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Int)
  records!: number;
}

/** How much the user's Brain holds. */
@ObjectType({ simpleResolvers: true })
export class BrainStats {
  @Field(() => Int)
  notes!: number;

  @Field(() => Int)
  folders!: number;

  @Field(() => Int)
  tags!: number;

  @Field(() => Int)
  canvases!: number;

  @Field(() => Int, { description: 'Words in the notes\' content: runs of non-space characters with a letter or digit (Markdown marks alone are not words).' })
  words!: number;

  @Field(() => Int)
  databases!: number;

  @Field(() => Int)
  records!: number;

  @Field(() => Int)
  forms!: number;

  @Field(() => [BrainDatabaseRecordCount], { description: 'Records per database, by database name.' })
  recordsPerDatabase!: BrainDatabaseRecordCount[];
}
