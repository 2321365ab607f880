import { Router, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { RedisClientType } from 'redis';
import type { AppContext, AppDeps } from '../src/core/context.js';
import { buildContext, cookielessBridge, requestLog } from '../src/http/request-context.js';
import { limiterStores } from '../src/http/rate-limits.js';
import { createSofaSurface } from './sofa-surface.js';
import type { RestPathCheck } from './path-comparison.js';
import { publicRoutes } from './public-routes.js';
import { ApiKeyAuthenticator, type ApiKeyAuth } from '../src/api-keys/api-key-auth.js';
import { API_KEY_LOCAL, apiKeyAuthentication } from '../src/public-api/public-auth.js';
import { publicApiRateLimiter } from '../src/public-api/public-rate-limit.js';
import { buildPublicOpenApi } from './public-openapi.js';
import { docsRoutes } from '../src/openapi/swagger-ui.js';
import { errorEnvelope } from '../src/http/envelope.js';
import { NoRouteError } from '../src/core/errors.js';

export const PUBLIC_API_BASE = '/api/public/v1';

/** The Public API's request context: the key's owner in `apiKey`; no session (no cookie is read). */
function publicContext(deps: AppDeps, req: Request, res: Response): AppContext {
  const context = buildContext(deps, { auth: null, http: cookielessBridge(req, res), log: () => requestLog(deps, req) });
  context.apiKey = res.locals[API_KEY_LOCAL] as ApiKeyAuth;
  return context;
}

/**
 * `/api/public/v1`: the OpenAPI document and the docs page (no key needed), then API-key
 * authentication, the per-key limiter and the Public API's own Sofa surface.
 */
export function publicApiRouter(deps: AppDeps, schema: GraphQLSchema, maxBodyBytes: number, redis?: RedisClientType, pathCheck?: RestPathCheck): { router: Router; stop(): Promise<void> } {
  const router = Router();
  const surface = createSofaSurface({
    basePath: PUBLIC_API_BASE,
    schema,
    routes: publicRoutes,
    logger: deps.logger,
    maxBodyBytes,
    context: async ({ req, res }) => publicContext(deps, req, res),
    describe: { title: 'Public API', version: 'v1' },
    pathCheck,
  });

  let yaml: string | undefined;
  router.get('/openapi.yaml', async (_req, res) => {
    const { sofaRouteOperations } = await import('./sofa-operations.js');
    yaml ??= await buildPublicOpenApi(await surface.openAPIDocument(), schema, publicRoutes, PUBLIC_API_BASE, sofaRouteOperations(schema, publicRoutes)).yaml();
    res.type('application/yaml').send(yaml);
  });
  router.use(
    docsRoutes({
      base: PUBLIC_API_BASE,
      title: 'Public API v1 reference',
      notFound: (req, res) => res.status(404).json(errorEnvelope(new NoRouteError(req.method, req.originalUrl.split('?')[0]!))),
    }),
  );

  // Key lookups are cached per instance; its invalidation listener starts with the first keyed request.
  const authenticator = new ApiKeyAuthenticator(deps.orm, deps.logger);
  router.use(apiKeyAuthentication(authenticator));
  const limiter = publicApiRateLimiter(deps.config, limiterStores(redis, deps.logger));
  if (limiter) router.use(limiter);
  router.use((req, res) => surface.adapter(req, res));
  return { router, stop: () => authenticator.stop() };
}
