import express, { type ErrorRequestHandler, type Express, type Request } from 'express';
import cookieParser from 'cookie-parser';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import type { GraphQLSchema } from 'graphql';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import type { AppContext, AppDeps } from '../core/context.js';
import { createFormatError } from '../graphql/format-error.js';
import { createSofaSurface } from '../../rest/sofa-surface.js';
import { sessionRoutes } from '../../rest/session-routes.js';
import { errorEnvelope } from '../../rest/envelope.js';
import { apiVersionHeader, deprecatedUnversionedApi } from './api-headers.js';
import { healthRoutes } from './health.js';
import { limiterStores, sessionRateLimiters } from './rate-limits.js';
import { createRequestContext } from './request-context.js';
import type { RedisClientType } from 'redis';

/** Request bodies above this are refused before parsing (a 1 MB string still reaches validation). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface HttpApp {
  app: Express;
  stop(): Promise<void>;
}

export async function createHttpApp(deps: AppDeps, schema: GraphQLSchema, redis?: RedisClientType): Promise<HttpApp> {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');

  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    }),
  );
  app.use(healthRoutes(deps, [() => deps.jobs.ping()]));
  app.use('/api', apiVersionHeader);
  app.use('/graphql', apiVersionHeader);
  app.use(deprecatedUnversionedApi);
  app.use((req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > MAX_BODY_BYTES) {
      res.status(413).json(errorEnvelope({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: `Request body over ${MAX_BODY_BYTES} bytes` }));
      return;
    }
    next();
  });
  app.use(cookieParser());

  const limiters = sessionRateLimiters(deps.config, limiterStores(redis));
  if (limiters) {
    app.use('/api/v1/auth', limiters.auth);
    app.use('/api/v1', limiters.global);
    app.use('/graphql', limiters.global);
  }

  const apollo = new ApolloServer<AppContext>({
    schema,
    formatError: createFormatError(deps.logger),
    introspection: true,
  });
  await apollo.start();
  app.use(
    '/graphql',
    express.json({ limit: MAX_BODY_BYTES }),
    expressMiddleware(apollo, { context: ({ req, res }) => createRequestContext(deps, req, res) }),
  );

  const session = createSofaSurface({
    basePath: '/api/v1',
    schema,
    routes: sessionRoutes,
    logger: deps.logger,
    context: ({ req, res }) => createRequestContext(deps, req, res),
  });
  app.use('/api/v1', (req, res) => session.adapter(req, res));

  app.use((req: Request, res) => {
    res.status(404).json(errorEnvelope({ status: 404, code: 'NOT_FOUND', message: `No route ${req.method} ${req.path}` }));
  });
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status >= 400 && status < 500) {
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
      res.status(status === 413 ? 413 : 400).json(errorEnvelope({ status, code, message: error.expose ? error.message : 'Bad request' }));
      return;
    }
    req.log?.error({ err: error }, 'unhandled error');
    res.status(500).json(errorEnvelope({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal server error' }));
  };
  app.use(onError);

  return { app, stop: () => apollo.stop() };
}
