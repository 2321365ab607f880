import { Field, ID, ObjectType } from 'type-graphql';

/** What a DELETE answers: the id that is gone and a sentence saying so. */
@ObjectType({ simpleResolvers: true })
export class Deleted {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  message!: string;
}

export function deleted(id: string, what: string): Deleted {
  return { id, message: `${what} deleted` };
}
