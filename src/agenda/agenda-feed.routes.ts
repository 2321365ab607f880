import { once } from 'node:events';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../core/context.js';
import { serviceFor } from '../core/request-services.js';
import { errorEnvelope } from '../http/envelope.js';
import { internalErrorBody } from '../core/errors.js';
import type { LimiterStores } from '../http/rate-limits.js';
import { feedLimiters } from './agenda-feed.limits.js';
import { AgendaFeedService } from './agenda-feed.service.js';

/** How long a calendar app may keep a fetched feed before asking again (with If-None-Match). */
const FEED_MAX_AGE_SECONDS = 300;

/** The calendar app went away while the feed was being written. */
class FeedAbandoned extends Error {}

/** Whether the request's validators say the client holds this version (RFC 9110 §13.1.2, §13.1.3). */
function notModified(req: Request, etag: string, changedAt: Date): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch) return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
  const since = req.headers['if-modified-since'] ? Date.parse(req.headers['if-modified-since']) : NaN;
  return !Number.isNaN(since) && changedAt.getTime() <= since;
}

/**
 * GET /agenda/feed/<token>.ics: the calendar feed, outside /api/v1 because calendar apps fetch it
 * without a session; the secret token in the path is the only credential. An unknown or rotated
 * token answers 404 in the REST envelope. Limited per address (all fetches, and misses much more
 * strictly) and per token; answered 304 when the calendar app already holds what the feed holds;
 * written in batches (the event loop free between them).
 */
export function agendaFeedRoutes(deps: AppDeps, stores: LimiterStores): Router {
  const router = Router();
  const limits = feedLimiters(deps.config, stores);
  router.get('/agenda/feed/:file', ...limits.byAddress, async (req: Request<{ file: string }>, res: Response) => {
    const log = req.log ?? deps.logger;
    try {
      const file = req.params.file;
      const feeds = serviceFor({ deps, em: deps.orm.em.fork() }, AgendaFeedService);
      const token = file.endsWith('.ics') ? file.slice(0, -'.ics'.length) : '';
      const feed = token ? await feeds.feedOf(token) : null;
      if (!feed) {
        if (await limits.missLimited(req.ip, res)) return;
        res.status(404).json(errorEnvelope({ status: 404, code: 'NOT_FOUND', message: 'Calendar feed not found' }));
        return;
      }
      if (await limits.tokenLimited(feed.userId, res)) return;
      // Opt-in parts of the feed, named in its query string (`?include=habits`).
      const include = typeof req.query.include === 'string' ? req.query.include.split(',') : [];
      const contents = await feeds.contents(feed, new Date(), { habits: include.includes('habits') });
      const etag = `"${contents.etag}"`;
      res.setHeader('ETag', etag);
      res.setHeader('Last-Modified', contents.changedAt.toUTCString());
      res.setHeader('Cache-Control', `private, max-age=${FEED_MAX_AGE_SECONDS}`);
      if (notModified(req, etag, contents.changedAt)) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Disposition', 'inline; filename="agenda.ics"');
      res.status(200).type('text/calendar; charset=utf-8');
      await feeds.render(contents, async (text) => {
        if (res.destroyed) throw new FeedAbandoned();
        // A slow reader is waited for, never buffered for: the next batch waits until this one left.
        if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      });
      res.end();
    } catch (error) {
      if (error instanceof FeedAbandoned) return;
      log.error({ err: error }, 'calendar feed failed');
      if (!res.headersSent) res.status(500).json(errorEnvelope(internalErrorBody()));
      else res.destroy();
    }
  });
  return router;
}
