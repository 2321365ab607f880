import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../core/current-user.js';
import { Deleted } from '../core/deleted.js';
import { Service } from '../core/request-services.js';
import { TrashService } from './trash.service.js';
import { ListTrashArgs, RestoredEntry, TrashEmptied, TrashEntry, TrashIdArgs, TrashPage } from './trash.types.js';

@Authorized()
@Resolver(() => TrashEntry)
export class TrashResolver {
  @Query(() => TrashPage, { description: 'Your deleted records, newest first, restorable until their purgeAt (docs/trash.md).' })
  trash(@Args(() => ListTrashArgs) args: ListTrashArgs, @CurrentUserId() userId: string, @Service(TrashService) trash: TrashService): Promise<TrashPage> {
    return trash.list(userId, args);
  }

  @Mutation(() => RestoredEntry, {
    description:
      'Puts the record back with its id and what its delete took with it. Refused (VALIDATION_ERROR, details.rule) with ' +
      '`trash_parent_gone` when what it belonged to is deleted, `trash_conflict` when another record holds its place, or the cap of a full parent (`day_task_limit`, …).',
  })
  restoreFromTrash(@Args(() => TrashIdArgs) args: TrashIdArgs, @CurrentUserId() userId: string, @Service(TrashService) trash: TrashService): Promise<RestoredEntry> {
    return trash.restore(userId, args.trashId);
  }

  @Mutation(() => Deleted, { description: 'Deletes one trash entry for good (a file\'s stored bytes with it).' })
  deleteFromTrash(@Args(() => TrashIdArgs) args: TrashIdArgs, @CurrentUserId() userId: string, @Service(TrashService) trash: TrashService): Promise<Deleted> {
    return trash.deleteForever(userId, args.trashId);
  }

  @Mutation(() => TrashEmptied, { description: 'Deletes every trash entry for good.' })
  async emptyTrash(@CurrentUserId() userId: string, @Service(TrashService) trash: TrashService): Promise<TrashEmptied> {
    return { deleted: await trash.empty(userId) };
  }
}
