import type { RedisClientType } from 'redis';
import type { AppDeps } from '../core/context.js';
import type { Orm } from '../core/database/orm.js';
import { LiveChangeCollector, scopeOfKinds } from '../core/live/change-collector.js';
import type { LiveBus } from '../core/live/live-bus.js';
import { LiveHub } from '../core/live/live-hub.js';
import { PostgresLiveBus } from '../core/live/postgres-live-bus.js';
import { liveRedisChannel, RedisLiveBus } from '../core/live/redis-live-bus.js';
import { liveSessionIds } from '../accounts/session-liveness.queries.js';
import { daysOfChange, weeksOfChange } from '../planning/day-of-change.js';
import { projectsOfChange } from '../projects/project-of-change.js';
import { groceryListsOfChange } from '../nutrition/grocery-list-of-change.js';
import { EXPORT_REGISTRY, isExported } from '../portability/export/export-registry.js';
import type { LiveChange } from '../core/live/live-change.js';

/** What each change belongs to, as the domains declare it: the subscriptions to other ones need not read again. */
const scopeOfChange = scopeOfKinds({ day: daysOfChange, week: weeksOfChange, project: projectsOfChange, groceryList: groceryListsOfChange });

/** The change feed records the person's own data: what the account export writes (docs/sync.md), and "*". */
const SYNCED = new Set(Object.entries(EXPORT_REGISTRY).filter(([, entry]) => isExported(entry)).map(([name]) => name));
const inFeed = (change: LiveChange) => change.entity === '*' || SYNCED.has(change.entity);

/**
 * Live updates (issue 27): the bus between instances (Redis pub/sub with REDIS_URL, else PostgreSQL
 * LISTEN/NOTIFY), this instance's hub, and the ORM subscriber that sends each committed transaction's
 * changes. Sockets and the event stream are attached to the hub by their edges.
 */
export async function startLive(deps: Pick<AppDeps, 'config' | 'logger'>, orm: Orm, databaseUrl: string, redis: RedisClientType | undefined): Promise<LiveHub> {
  let hub: LiveHub | undefined;
  const gap = () => hub?.gap();
  const bus: LiveBus = redis ? new RedisLiveBus(redis, liveRedisChannel(databaseUrl), deps.logger, gap) : new PostgresLiveBus(databaseUrl, deps.logger, gap);
  hub = new LiveHub(bus, deps.config.live, (ids) => liveSessionIds(orm.em.fork(), ids), deps.logger);
  orm.em.getEventManager().registerSubscriber(new LiveChangeCollector(() => bus, scopeOfChange, inFeed));
  await bus.start();
  return hub;
}
