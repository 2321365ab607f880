import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../core/context.js';
import { requireAuth } from '../../core/current-user.js';
import { BrainSearchService } from './brain-search.service.js';
import { BrainEntityType, BrainReindexResult, BrainSearchArgs, BrainSearchHit } from './brain-search.types.js';

@Resolver()
export class BrainSearchResolver {
  @Query(() => [BrainSearchHit], { description: 'Full-text search over your notes, databases, records and forms, best match first.' })
  brainSearch(@Args(() => BrainSearchArgs) args: BrainSearchArgs, @Ctx() ctx: AppContext): Promise<BrainSearchHit[]> {
    return new BrainSearchService(ctx.em).search(requireAuth(ctx).user.id, args);
  }

  @Query(() => [BrainEntityType], { description: 'The searchable entity types, with how many of each you have.' })
  brainEntityTypes(@Ctx() ctx: AppContext): Promise<BrainEntityType[]> {
    return new BrainSearchService(ctx.em).types(requireAuth(ctx).user.id);
  }

  @Mutation(() => BrainReindexResult, { description: 'Recomputes the search vectors of all your Brain entities.' })
  reindexBrainEntities(@Ctx() ctx: AppContext): Promise<BrainReindexResult> {
    return new BrainSearchService(ctx.em).reindex(requireAuth(ctx).user.id);
  }
}
