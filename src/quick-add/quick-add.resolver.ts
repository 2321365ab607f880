import { Args, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUserId } from '../core/current-user.js';
import { Service } from '../core/request-services.js';
import { QuickAddService } from './quick-add.service.js';
import { QuickAddArgs, QuickAddResult } from './quick-add.types.js';

export const QUICK_ADD_DESCRIPTION =
  'Quick add: one line of text ("write report tomorrow 9am ~90m #work", "coffee 3.50 eur #food from checking", "slept 7h20") ' +
  'becomes one record, written by its domain; `dryRun` writes nothing. The answer gives the line token by token, the record, ' +
  'the defaults filled in and other readings. A line or a name not understood answers 422 NOT_UNDERSTOOD with what was.';

@Authorized()
@Resolver()
export class QuickAddResolver {
  @Mutation(() => QuickAddResult, { description: `POST /quick (201; 200 on a dry run). ${QUICK_ADD_DESCRIPTION}` })
  async quickAdd(@Args(() => QuickAddArgs) args: QuickAddArgs, @CurrentUserId() userId: string, @Service(QuickAddService) quickAdd: QuickAddService, @Ctx() ctx: AppContext): Promise<QuickAddResult> {
    const answer = await quickAdd.add(userId, args);
    if (answer.dryRun) ctx.http.setStatus(200);
    return answer;
  }
}
