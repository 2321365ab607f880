import { Args, ArgsType, Authorized, Ctx, Field, Mutation, ObjectType, Resolver } from 'type-graphql';
import { API_CALLER } from '../core/authorization.js';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { UnauthorizedError } from '../core/errors.js';
import { Service } from '../core/request-services.js';
import { UUID } from '../core/scalars.js';
import { requestPerson } from './undo-offers.js';
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

  @Authorized(API_CALLER)
  @Mutation(() => UndoneWrite, {
    description:
      'POST /undo of the Public API: as `undo`, for the API key\'s owner (a token of any of their writes, by key or in the app). The same answers: 404, 409 UNDO_CONFLICT, 410 UNDO_EXPIRED, 400 when the inverse breaks a rule.',
  })
  publicUndo(@Args(() => UndoArgs) args: UndoArgs, @Ctx() ctx: AppContext, @Service(UndoService) undoService: UndoService): Promise<UndoneWrite> {
    const userId = requestPerson(ctx);
    if (!userId) throw new UnauthorizedError();
    return undoService.undo(userId, args.token);
  }
}
