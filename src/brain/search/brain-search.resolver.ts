import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUserId } from '../../core/current-user.js';
import { BrainSearchService } from './brain-search.service.js';
import { BrainEntityType, BrainReindexResult, BrainSearchArgs, BrainSearchHit } from './brain-search.types.js';
import { Service } from '../../core/request-services.js';

@Authorized()
@Resolver()
export class BrainSearchResolver {
  @Query(() => [BrainSearchHit], { description: 'Full-text search over your notes, databases, records and forms, best match first.' })
  brainSearch(@Args(() => BrainSearchArgs) args: BrainSearchArgs, @CurrentUserId() userId: string, @Service(BrainSearchService) brainSearchService: BrainSearchService): Promise<BrainSearchHit[]> {
    return brainSearchService.search(userId, args);
  }

  @Query(() => [BrainEntityType], { description: 'The searchable entity types, with how many of each you have.' })
  brainEntityTypes(@CurrentUserId() userId: string, @Service(BrainSearchService) brainSearchService: BrainSearchService): Promise<BrainEntityType[]> {
    return brainSearchService.types(userId);
  }

  @Mutation(() => BrainReindexResult, { description: 'Recomputes the search vectors of all your Brain entities.' })
  reindexBrainEntities(@CurrentUserId() userId: string, @Service(BrainSearchService) brainSearchService: BrainSearchService): Promise<BrainReindexResult> {
    return brainSearchService.reindex(userId);
  }
}
