import { Args, ArgsType, Authorized, Field, Mutation, ObjectType, Resolver } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { Service } from '../core/request-services.js';
import { UUID } from '../core/scalars.js';
import { UndoService } from './undo.service.js';

@ArgsType()
export class UndoArgs {
  @Field(() => String, { description: 'The token a write answered (REST: its `Undo-Token` header; GraphQL: `extensions.undoToken`), as it was: an opaque signed string.' })
  token!: string;
}

@ObjectType({ simpleResolvers: true })
export class UndoneWrite {
  @Field(() => String, { description: 'The write undone: `task_update`, `checklist_toggle` or `<kind>_delete` (docs/undo.md).' })
  kind!: string;

  @Field(() => UUID)
  recordId!: string;
}

@Authorized()
@Resolver()
export class UndoResolver {
  @Mutation(() => UndoneWrite, {
    description:
      'Reverts the write the token was answered for, with its side effects (XP, events: a `write_undone` webhook event). Single use, valid 10 minutes: 410 UNDO_EXPIRED after, 409 UNDO_CONFLICT when the record changed since, 404 for a used, missing or another person\'s token.',
  })
  undo(@Args(() => UndoArgs) args: UndoArgs, @CurrentUserId() userId: string, @Service(UndoService) undoService: UndoService): Promise<UndoneWrite> {
    return undoService.undo(userId, args.token);
  }
}
