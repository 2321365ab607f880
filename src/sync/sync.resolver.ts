import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { readSyncPage, SYNC_DEFAULT_LIMIT, SYNC_MAX_LIMIT } from './sync.service.js';
import { SyncPageView } from './sync.types.js';

@Authorized()
@Resolver()
export class SyncResolver {
  @Query(() => SyncPageView, {
    description:
      'What changed since a cursor (the change feed, docs/sync.md): current state of changed records, tombstones of deleted ones, the next cursor. ' +
      'No `since` (or "0"): from the start of your feed. A cursor the feed no longer answers is refused with SYNC_CURSOR_EXPIRED (REST: 410) ' +
      'whose `details.cursor` is your newest cursor: read everything again, then sync from it.',
  })
  sync(
    @CurrentUserId() userId: string,
    @Ctx() ctx: AppContext,
    @Arg('since', () => String, { nullable: true, description: 'The `cursor` of the last page you applied, or of the last `myChanges` event.' }) since?: string | null,
    @Arg('limit', () => Int, { nullable: true, description: `Feed rows per page: 1 to ${SYNC_MAX_LIMIT}, ${SYNC_DEFAULT_LIMIT} when not given.` }) limit?: number | null,
  ): Promise<SyncPageView> {
    return readSyncPage(ctx.em, userId, since, limit);
  }
}
