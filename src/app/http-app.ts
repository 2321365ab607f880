import express, { type ErrorRequestHandler, type Express, type Request } from 'express';
import cookieParser from 'cookie-parser';
import type { GraphQLSchema } from 'graphql';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { AppContext, AppDeps } from '../core/context.js';
import { compiledExecutionGateway } from '../graphql/compiled-gateway.js';
import { createFormatError } from '../graphql/format-error.js';
import { LIMITED_PARSE_OPTIONS } from '../graphql/operation-limits.js';
import { subscriptionsOverWebSocketOnly } from '../graphql/subscriptions-over-http.js';
import { createSofaSurface } from '../../rest/sofa-surface.js';
import type { RestPathCheck } from '../../rest/path-comparison.js';
import { sessionRoutes } from '../../rest/session-routes.js';
import { errorEnvelope } from '../http/envelope.js';
import { AppError, appErrorBody, internalErrorBody, NoRouteError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError, type ErrorBody } from '../core/errors.js';
import { apiVersionHeader, deprecatedUnversionedApi } from '../http/api-headers.js';
import { healthRoutes } from '../http/health.js';
import { dependencyChecks } from './dependency-checks.js';
import { homeRoutes, packageInfo } from '../http/home.js';
import { connectorRoutes } from '../connector/index.js';
import { GRAPHQL_IDE_ASSETS, graphqlIdeAssets, graphqlIdePage } from '../http/graphql-ide.js';
import { sessionDocsRouter } from '../../rest/session-openapi.js';
import { sessionRateLimiters, type LimiterStores, type SessionLimiters } from '../http/rate-limits.js';
import { authLimitPlugin } from './auth-limit-plugin.js';
import { accessBeforeInputPlugin } from './access-before-input-plugin.js';
import { undoTokenPlugin } from '../graphql/undo-token-plugin.js';
import { graphqlIdempotencyPlugin } from '../idempotency/graphql-idempotency-plugin.js';
import { isAuthMutationRoute } from './auth-operations.js';
import { createRequestContext } from '../http/request-context.js';
import { requestLogging } from '../http/request-logging.js';
import { sameOriginWrites } from '../http/same-origin-writes.js';
import { isJsonContentType } from '../http/json-content-type.js';
import { publicApiRouter } from '../../rest/public-api.http.js';
import { handWrittenPaths, handWrittenRoutes, isAuthLimitedHandWrittenRoute, isStreamedUpload } from './hand-written-routes.js';
import { agendaFeedRoutes } from '../agenda/agenda-feed.routes.js';
import type { RedisClientType } from 'redis';
import { publicFormPageRoutes } from '../brain/forms/public-form-page.js';

/** Request bodies above this are refused before parsing (a 1 MB string still reaches validation). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface HttpApp {
  app: Express;
  /** The session limiters (null with DISABLE_RATE_LIMIT), also for the WebSocket upgrades express never sees. */
  limiters: SessionLimiters | null;
  stop(): Promise<void>;
}

export async function createHttpApp(deps: AppDeps, schema: GraphQLSchema, stores: LimiterStores, redis?: RedisClientType, pathCheck?: RestPathCheck): Promise<HttpApp> {
  const app = express();
  app.disable('x-powered-by');
  // req.ip (rate limits, logs, sessions) is the client's address as the trusted proxies report it.
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'extended');

  app.use(requestLogging(deps.logger));
  app.use(healthRoutes(deps, dependencyChecks(deps, redis)));
  app.use(homeRoutes());
  app.use(GRAPHQL_IDE_ASSETS, graphqlIdeAssets());
  app.use('/api', apiVersionHeader);
  app.use('/graphql', apiVersionHeader);
  app.use(deprecatedUnversionedApi);
  app.use((req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    // Refused before reading; the error handler answers 413 in the surface's shape.
    if (isStreamedUpload(req.method, req.path)) return next(); // limited by MAX_FILE_SIZE while streaming
    next(length > MAX_BODY_BYTES ? Object.assign(new Error('Request body too large'), { status: 413 }) : undefined);
  });
  // The Public API: its own surface, authenticated by API key and limited per key. It comes before the
  // cookie-authenticated surfaces' middleware (cookies, CSRF, session limiters, the connector, Apollo),
  // none of which applies to it, so a keyed request does not walk through them.
  const publicApi = publicApiRouter(deps, schema, MAX_BODY_BYTES, redis, pathCheck);
  app.use('/api/public/v1', publicApi.router);
  app.use(cookieParser());
  // CSRF: the cookie-authenticated surfaces refuse writes sent by pages of other origins (after the
  // deprecated /api/... paths were rewritten to /api/v1; the Public API is keyed, not behind this).
  app.use(['/graphql', '/api/v1'], sameOriginWrites(deps.config));

  const limiters = sessionRateLimiters(deps.config, stores);
  if (limiters) {
    // The auth limiter runs last on auth mutations so its (stricter) RateLimit headers are the ones
    // sent; on /graphql it counts the operation to run (auth-limit-plugin.ts).
    app.use('/api/v1', limiters.global);
    app.use('/graphql', limiters.global);
    app.use('/api/v1', (req, res, next) => (isAuthMutationRoute(req.method, req.path) || isAuthLimitedHandWrittenRoute(req.path) ? limiters.auth(req, res, next) : next()));
    // Public Brain form routes (no login): limited per IP like the auth routes, with their own counter.
    app.use(['/api/v1/brain/public', '/brain/f'], limiters.publicForms);
  }

  // The assistant connector: OAuth endpoints and documents at the root, MCP at /mcp.
  app.use(connectorRoutes(deps, { limiters, stores, maxBodyBytes: MAX_BODY_BYTES, version: packageInfo().version }));

  const apollo = new ApolloServer<AppContext>({
    gateway: compiledExecutionGateway(schema),
    formatError: createFormatError(deps.logger),
    introspection: true,
    // Stack traces and file paths only when the operator asks (GRAPHQL_DEBUG), whatever NODE_ENV says.
    includeStacktraceInErrorResponses: deps.config.graphqlDebug,
    // main.ts owns SIGTERM/SIGINT and stops everything in order; Apollo must not race it.
    stopOnTerminationSignals: false,
    // The schema sets no cache hints, so the plugin only ever computed "no-store" (≈10% of CPU on a
    // week read); the header is set below instead.
    // GET /graphql from a browser is our own GraphiQL (graphql-ide.ts); Apollo's landing page loads a CDN.
    // Inline tracing only ever acts for a federated subgraph, which this schema is not; left enabled,
    // Apollo loads it and its protobuf code at start (~0.4 MB of source an idle process keeps).
    plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginInlineTraceDisabled(), ApolloServerPluginLandingPageDisabled(), subscriptionsOverWebSocketOnly(), accessBeforeInputPlugin(), authLimitPlugin(limiters), undoTokenPlugin(), graphqlIdempotencyPlugin()],
    parseOptions: LIMITED_PARSE_OPTIONS,
  });
  await apollo.start();
  app.get('/graphql', graphqlIdePage);
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
    expressMiddleware(apollo, { context: ({ req, res }) => createRequestContext(deps, req, res) }),
  );

  const session = createSofaSurface({
    basePath: '/api/v1',
    schema,
    routes: sessionRoutes,
    logger: deps.logger,
    maxBodyBytes: MAX_BODY_BYTES,
    context: ({ req, res }) => createRequestContext(deps, req, res),
    describe: { title: 'Session API', version: 'v1' },
    jsonBodiesOnly: true,
    pathCheck,
  });
  // Its description and reference, before the surface (which answers 404 to paths it does not route).
  app.use('/api/v1', sessionDocsRouter(schema, sessionRoutes, session.openAPIDocument, handWrittenPaths()));
  app.use('/api/v1', handWrittenRoutes(deps, schema));
  app.use('/api/v1', (req, res) => session.adapter(req, res));
  // The agenda's calendar feed: no session, the secret token in the path (calendar apps subscribe to it).
  app.use(agendaFeedRoutes(deps, stores));
  // The public Brain form page (HTML, outside /api/v1).
  app.use(publicFormPageRoutes(deps));

  app.use((req: Request, res) => {
    res.status(404).json(errorEnvelope(new NoRouteError(req.method, req.path)));
  });
  // Failures before a handler answers (body parsing, size): the REST envelope, or on /graphql the
  // GraphQL error shape with the same code in `extensions`.
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    let body: ErrorBody;
    if (error instanceof AppError) body = appErrorBody(error);
    else if (status === 413) body = appErrorBody(new PayloadTooLargeError(MAX_BODY_BYTES));
    else if (status >= 400 && status < 500) {
      const message = error.type === 'entity.parse.failed' ? `Request body is not valid JSON: ${error.message}` : error.expose ? error.message : 'Bad request';
      body = appErrorBody(new ValidationError(message, [{ path: [], message }]));
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

  return { app, limiters, stop: async () => void (await Promise.all([apollo.stop(), publicApi.stop()])) };
}
