import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { JSONObjectResolver } from 'graphql-scalars';
import { DateTimeISO, UUID } from '../../core/scalars.js';
import { BrainDatabaseView, BrainRecordView } from '../databases/brain-data.types.js';

/**
 * GraphQL types of Brain forms (the session side; the public side stays hand-written REST:
 * public-forms.routes.ts). The services (form.service.ts, form-submit.service.ts) keep every rule; `config`
 * and the fields are JSON objects checked there (form-config.ts).
 */

@ObjectType('BrainForm', { simpleResolvers: true, description: 'A form that fills a Brain database.' })
export class BrainFormView {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => ID)
  databaseId!: string;

  @Field(() => JSONObjectResolver, {
    description:
      '`{ description?, fields[], thankYouMessage?, collectRespondentName?, showQuizScore?, oneResponsePerPerson?, closed?, closesAt?, hasAccessPassword }` (the access password is never read back).',
  })
  config!: object;

  @Field(() => Boolean)
  hasAccessPassword!: boolean;

  @Field(() => Boolean, { description: 'Whether the fields are kept as properties of the database.' })
  syncFields!: boolean;

  @Field(() => Boolean)
  published!: boolean;

  @Field(() => String, { nullable: true, description: 'Assigned on the first publish and kept when unpublished.' })
  publicSlug!: string | null;

  @Field(() => DateTimeISO)
  createdAt!: string;

  @Field(() => DateTimeISO)
  updatedAt!: string;
}

@ObjectType('BrainFormEditor', { simpleResolvers: true, description: 'The editor payload: the form, its fields and its database.' })
export class BrainFormEditorView extends BrainFormView {
  @Field(() => [JSONObjectResolver], { description: 'Fields `{ key, label, type, required?, options?, correct?, points? }`.' })
  fields!: object[];

  @Field(() => BrainDatabaseView)
  database!: BrainDatabaseView;
}

@ObjectType('BrainQuizResult', { simpleResolvers: true })
export class BrainQuizResult {
  @Field(() => Float)
  score!: number;

  @Field(() => Float)
  max!: number;

  @Field(() => Int)
  pct!: number;
}

@ObjectType('BrainFormSubmitResult', { simpleResolvers: true })
export class BrainFormSubmitResult {
  @Field(() => BrainFormView)
  form!: BrainFormView;

  @Field(() => BrainDatabaseView)
  database!: BrainDatabaseView;

  @Field(() => BrainRecordView)
  record!: BrainRecordView;

  @Field(() => BrainQuizResult, { nullable: true, description: 'Null for a form that is not a quiz.' })
  quiz?: BrainQuizResult | null;

  @Field(() => String)
  thankYouMessage!: string;
}

@ArgsType()
export class BrainFormIdArgs {
  @Field(() => UUID)
  formId!: string;
}

@ArgsType()
export class CreateBrainFormArgs {
  @Field(() => String, { description: 'At most 200 characters.' })
  name!: string;

  @Field(() => UUID, { nullable: true, description: 'One of your databases; or give createDatabase.' })
  databaseId?: string;

  @Field(() => JSONObjectResolver, { nullable: true, description: '`{ name }`: a new database for the answers (its properties follow the fields).' })
  createDatabase?: object;

  @Field(() => JSONObjectResolver, { nullable: true, description: 'The form config (see BrainForm.config), with an optional write-only `accessPassword`.' })
  config?: object;

  @Field(() => Boolean, { nullable: true, description: 'Default true with createDatabase, false with databaseId.' })
  syncFields?: boolean;
}

@ArgsType()
export class UpdateBrainFormArgs extends BrainFormIdArgs {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => JSONObjectResolver, { nullable: true, description: 'Replaces the config; `accessPassword` left out keeps the stored one, null removes it.' })
  config?: object;

  @Field(() => Boolean, { nullable: true })
  syncFields?: boolean;
}

@ArgsType()
export class PublishBrainFormArgs extends BrainFormIdArgs {
  @Field(() => Boolean)
  published!: boolean;
}

@ArgsType()
export class SubmitBrainFormArgs extends BrainFormIdArgs {
  @Field(() => JSONObjectResolver, { nullable: true, description: 'Answers by field key (default none).' })
  values?: object;

  @Field(() => String, { nullable: true })
  respondentName?: string;
}
