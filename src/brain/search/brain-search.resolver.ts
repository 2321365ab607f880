import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../core/context.js';
import { CurrentUserId } from '../../core/current-user.js';
import { BrainSearchService } from './brain-search.service.js';
import { BrainEntityType, BrainReindexResult, BrainSearchArgs, BrainSearchHit } from './brain-search.types.js';

@Authorized()
@Resolver()
export class BrainSearchResolver {
  @Query(() => [BrainSearchHit], { description: 'Full-text search over your notes, databases, records and forms, best match first.' })
  brainSearch(@Args(() => BrainSearchArgs) args: BrainSearchArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<BrainSearchHit[]> {
    return new BrainSearchService(ctx.em).search(userId, args);
  }

  @Query(() => [BrainEntityType], { description: 'The searchable entity types, with how many of each you have.' })
  brainEntityTypes(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<BrainEntityType[]> {
    return new BrainSearchService(ctx.em).types(userId);
  }

  @Mutation(() => BrainReindexResult, { description: 'Recomputes the search vectors of all your Brain entities.' })
  reindexBrainEntities(@CurrentUserId() userId: string, @Ctx() ctx: AppContext): Promise<BrainReindexResult> {
    return new BrainSearchService(ctx.em).reindex(userId);
  }
}
