import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../core/context.js';
import { errorEnvelope } from '../../rest/envelope.js';
import { internalErrorBody } from '../core/errors.js';
import { AgendaFeedService } from './agenda-feed.service.js';

/**
 * GET /agenda/feed/<token>.ics: the calendar feed, outside /api/v1 because calendar apps fetch it
 * without a session; the secret token in the path is the only credential. An unknown or rotated
 * token answers 404 in the REST envelope.
 */
export function agendaFeedRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/agenda/feed/:file', async (req: Request<{ file: string }>, res: Response) => {
    const log = req.log ?? deps.logger;
    try {
      const file = req.params.file;
      const em = deps.orm.em.fork();
      const feeds = new AgendaFeedService(em);
      const userId = file.endsWith('.ics') ? await feeds.userOf(file.slice(0, -'.ics'.length)) : null;
      if (!userId) {
        res.status(404).json(errorEnvelope({ status: 404, code: 'NOT_FOUND', message: 'Calendar feed not found' }));
        return;
      }
      const body = await feeds.calendar(userId);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Disposition', 'inline; filename="agenda.ics"');
      res.status(200).type('text/calendar; charset=utf-8').send(body);
    } catch (error) {
      log.error({ err: error }, 'calendar feed failed');
      if (!res.headersSent) res.status(500).json(errorEnvelope(internalErrorBody()));
    }
  });
  return router;
}
