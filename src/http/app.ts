import express, { type ErrorRequestHandler, type Express, type Request } from 'express';
import cookieParser from 'cookie-parser';
import type { GraphQLSchema } from 'graphql';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { AppContext, AppDeps } from '../core/context.js';
import { compiledExecutionGateway } from '../graphql/compiled-gateway.js';
import { createFormatError } from '../graphql/format-error.js';
import { createSofaSurface } from '../../rest/sofa-surface.js';
import { sessionRoutes } from '../../rest/session-routes.js';
import { errorEnvelope } from '../../rest/envelope.js';
import { AppError, appErrorBody, internalErrorBody, UnsupportedMediaTypeError, type ErrorBody } from '../core/errors.js';
import { apiVersionHeader, deprecatedUnversionedApi } from './api-headers.js';
import { healthRoutes } from './health.js';
import { limiterStores, sessionRateLimiters } from './rate-limits.js';
import { createRequestContext } from './request-context.js';
import { requestLogging } from './request-logging.js';
import { sameOriginWrites } from './same-origin-writes.js';
import { isJsonContentType } from './json-content-type.js';
import { publicApiRouter } from '../public-api/public-api.http.js';
import { isStreamedUpload, uploadRoutes } from '../../rest/uploads.js';
import type { RedisClientType } from 'redis';

/** Root fields served by the /auth routes; a GraphQL document naming one is auth-limited. */
const AUTH_OPERATIONS = /\b(register|login|logout|requestPasswordReset|resetPassword|changePassword|verifyEmail|resendVerification)\b/;

function touchesAuthOperation(body: unknown): boolean {
  const requests = Array.isArray(body) ? body : [body];
  return requests.some((r) => typeof (r as { query?: unknown })?.query === 'string' && AUTH_OPERATIONS.test((r as { query: string }).query));
}

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

  app.use(requestLogging(deps.logger));
  app.use(healthRoutes(deps, [() => deps.jobs.ping()]));
  app.use('/api', apiVersionHeader);
  app.use('/graphql', apiVersionHeader);
  app.use(deprecatedUnversionedApi);
  app.use((req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    // Refused before reading; the error handler answers 413 in the surface's shape.
    if (isStreamedUpload(req.method, req.path)) return next(); // limited by MAX_FILE_SIZE while streaming
    next(length > MAX_BODY_BYTES ? Object.assign(new Error('Request body too large'), { status: 413 }) : undefined);
  });
  app.use(cookieParser());
  // CSRF: the cookie-authenticated surfaces refuse writes sent by pages of other origins (after the
  // deprecated /api/... paths were rewritten to /api/v1; the Public API is keyed, not behind this).
  app.use(['/graphql', '/api/v1'], sameOriginWrites(deps.config));

  const limiters = sessionRateLimiters(deps.config, limiterStores(redis));
  if (limiters) {
    // The auth limiter runs last on /auth routes so its (stricter) RateLimit headers are the ones sent.
    app.use('/api/v1', limiters.global);
    app.use('/graphql', limiters.global);
    app.use('/api/v1/auth', limiters.auth);
  }

  const apollo = new ApolloServer<AppContext>({
    gateway: compiledExecutionGateway(schema),
    formatError: createFormatError(deps.logger),
    introspection: true,
    // main.ts owns SIGTERM/SIGINT and stops everything in order; Apollo must not race it.
    stopOnTerminationSignals: false,
    // The schema sets no cache hints, so the plugin only ever computed "no-store" (≈10% of CPU on a
    // week read); the header is set below instead.
    plugins: [ApolloServerPluginCacheControlDisabled()],
  });
  await apollo.start();
  app.use(
    '/graphql',
    (_req, res, next) => {
      // Answers are per user and never cached (this was the cache-control plugin's answer too).
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    // A POST is JSON only (Apollo would parse nothing else and block some types as CSRF with a 400).
    (req, _res, next) => next(req.method === 'POST' && !isJsonContentType(req.headers['content-type']) ? new UnsupportedMediaTypeError(req.headers['content-type']) : undefined),
    express.json({ limit: MAX_BODY_BYTES }),
    // Signing in through GraphQL counts against the auth limit exactly like the /auth routes.
    (req, res, next) => (limiters && touchesAuthOperation(req.body) ? limiters.auth(req, res, next) : next()),
    expressMiddleware(apollo, { context: ({ req, res }) => createRequestContext(deps, req, res) }),
  );

  const session = createSofaSurface({
    basePath: '/api/v1',
    schema,
    routes: sessionRoutes,
    logger: deps.logger,
    maxBodyBytes: MAX_BODY_BYTES,
    context: ({ req, res }) => createRequestContext(deps, req, res),
    jsonBodiesOnly: true,
  });
  app.use('/api/v1', uploadRoutes(deps));
  app.use('/api/v1', (req, res) => session.adapter(req, res));
  // The Public API: its own surface, authenticated by API key and limited per key.
  app.use('/api/public/v1', publicApiRouter(deps, schema, MAX_BODY_BYTES, redis));

  app.use((req: Request, res) => {
    res.status(404).json(errorEnvelope({ status: 404, code: 'NOT_FOUND', message: `No route ${req.method} ${req.path}` }));
  });
  // Failures before a handler answers (body parsing, size): the REST envelope, or on /graphql the
  // GraphQL error shape with the same code in `extensions`.
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    let body: ErrorBody;
    if (error instanceof AppError) body = appErrorBody(error);
    else if (status === 413) body = { status: 413, code: 'PAYLOAD_TOO_LARGE', message: `Request body over ${MAX_BODY_BYTES} bytes` };
    else if (status >= 400 && status < 500) {
      const message = error.type === 'entity.parse.failed' ? `Request body is not valid JSON: ${error.message}` : error.expose ? error.message : 'Bad request';
      body = { status: 400, code: 'VALIDATION_ERROR', message, details: { errors: [{ path: [], message }] } };
    } else {
      req.log?.error({ err: error }, 'unhandled error');
      body = internalErrorBody();
    }
    if (req.originalUrl.startsWith('/graphql')) {
      res.status(body.status).json({ errors: [{ message: body.message, extensions: { code: body.code, status: body.status, ...(body.details ? { details: body.details } : {}) } }] });
      return;
    }
    res.status(body.status).json(errorEnvelope(body));
  };
  app.use(onError);

  return { app, stop: () => apollo.stop() };
}
