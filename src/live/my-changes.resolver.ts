import { Authorized, Field, ID, ObjectType, Resolver, Root, Subscription, registerEnumType } from 'type-graphql';
import type { LiveChangeKind } from '../core/live/live-change.js';
import { liveTicks, type LiveTick } from '../core/live/live-ticks.js';
import { DateTimeISO } from '../core/scalars.js';
import { MY_CHANGES_TOPIC } from './my-changes.js';

enum LiveChangeKindEnum {
  created = 'created',
  updated = 'updated',
  deleted = 'deleted',
}
registerEnumType(LiveChangeKindEnum, { name: 'LiveChangeKind' });

@ObjectType({ simpleResolvers: true, description: 'One committed change to one of your records. `entity` "*" means many changed at once: refetch what you show.' })
export class LiveChangeView {
  @Field(() => String, { description: 'The kind of record, e.g. Task, ChecklistItem, Day.' })
  entity!: string;

  @Field(() => ID)
  id!: string;

  @Field(() => LiveChangeKindEnum)
  kind!: LiveChangeKind;

  @Field(() => DateTimeISO, { description: 'When the change committed.' })
  committedAt!: Date;

  @Field(() => String, {
    nullable: true,
    description:
      'The change-feed cursor this event brings you to (docs/sync.md): once you applied the event, `sync(since:)` from it misses nothing and repeats nothing. ' +
      'Null when the event says nothing of the feed (records outside it, or a possible gap: entity "*"): keep the cursor you had.',
  })
  cursor?: string | null;
}

/** The compact feed for clients that refetch (issue 27); the same feed as GET /api/v1/events/stream. */
@Authorized()
@Resolver()
export class MyChangesResolver {
  @Subscription(() => [LiveChangeView], {
    subscribe: liveTicks(MY_CHANGES_TOPIC),
    description: 'Your committed changes, a list per event (several when they came together); the first event is empty.',
  })
  myChanges(@Root() tick: LiveTick): LiveChangeView[] {
    const committedAt = new Date(tick.committedAt ?? Date.now());
    const cursor = tick.changes.some((change) => change.entity === '*') ? null : (tick.cursor ?? null);
    return tick.changes.map((change) => ({ ...change, committedAt, cursor }));
  }
}
