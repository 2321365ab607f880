import { Router, type NextFunction, type Request, type Response } from 'express';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * `GET /graphql` from a browser: GraphiQL, served from the `graphiql`, `react` and `react-dom` packages
 * (their prebuilt browser builds), never from a CDN, so it works on a box without internet. Queries go
 * to `/graphql` with the session cookie (same origin) as `application/json`. API clients (a GET with
 * `?query=` or without `text/html` preferred) still reach Apollo.
 */

export const GRAPHQL_IDE_ASSETS = '/graphql-ide';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The only files the page loads: name → file in node_modules. */
const ASSETS: Record<string, string> = {
  'graphiql.min.css': join(packageDir('graphiql'), 'graphiql.min.css'),
  'graphiql.min.js': join(packageDir('graphiql'), 'graphiql.min.js'),
  'react.production.min.js': join(packageDir('react'), 'umd', 'react.production.min.js'),
  'react-dom.production.min.js': join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
  // The graphql-ws client: GraphiQL runs subscriptions over it (issue 27).
  'graphql-ws.min.js': join(packageDir('graphql-ws'), 'umd', 'graphql-ws.min.js'),
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>GraphQL IDE</title>
  <link rel="stylesheet" href="${GRAPHQL_IDE_ASSETS}/graphiql.min.css">
  <link rel="stylesheet" href="${GRAPHQL_IDE_ASSETS}/page.css">
</head>
<body>
  <div id="graphiql">Loading the GraphQL IDE…</div>
  <script src="${GRAPHQL_IDE_ASSETS}/react.production.min.js"></script>
  <script src="${GRAPHQL_IDE_ASSETS}/react-dom.production.min.js"></script>
  <script src="${GRAPHQL_IDE_ASSETS}/graphiql.min.js"></script>
  <script src="${GRAPHQL_IDE_ASSETS}/graphql-ws.min.js"></script>
  <script src="${GRAPHQL_IDE_ASSETS}/init.js"></script>
</body>
</html>
`;

const PAGE_CSS = 'html, body { height: 100%; margin: 0; } #graphiql { height: 100vh; }\n';

const INIT = `// Same-origin fetch: the browser sends the session cookie with every query; subscriptions go over a
// WebSocket to the same address (the cookie travels with the upgrade). GraphiQL's own routing sends an
// unnamed or single subscription over HTTP, so the choice is made here from the parsed document.
const wsClient = graphqlWs.createClient({ url: (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + ${JSON.stringify('/graphql')}, lazy: true });
const overHttp = GraphiQL.createFetcher({ url: ${JSON.stringify('/graphql')} });
function isSubscription(params) {
  try {
    return GraphiQL.GraphQL.parse(params.query).definitions.some((d) =>
      d.kind === 'OperationDefinition' && d.operation === 'subscription' && (!params.operationName || (d.name && d.name.value === params.operationName)));
  } catch (error) {
    return false;
  }
}
const fetcher = (params, options) =>
  isSubscription(params) ? wsClient.iterate({ query: params.query, variables: params.variables || undefined, operationName: params.operationName || undefined }) : overHttp(params, options);
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true, shouldPersistHeaders: false }),
);
`;

const csp = (host: string) => [
  "default-src 'self'",
  "script-src 'self'",
  // GraphiQL's components set inline styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  // 'self' covers ws: only in newer browsers: the socket to this host is named.
  `connect-src 'self' ws://${host} wss://${host}`,
  "frame-ancestors 'none'",
].join('; ');

/** A browser asking for a page: a GET with no operation that prefers HTML over JSON. */
function wantsIde(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.query.query !== undefined || req.query.extensions !== undefined) return false;
  return req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
}

/** Mount before Apollo on `/graphql`: answers browsers, passes everything else on. */
export function graphqlIdePage(req: Request, res: Response, next: NextFunction): void {
  if (!wantsIde(req)) return next();
  const host = req.headers.host ?? '';
  res.setHeader('Content-Security-Policy', csp(/^[\w.:[\]-]+$/.test(host) ? host : 'localhost'));
  res.setHeader('Vary', 'Accept');
  res.type('html').send(PAGE);
}

/** `/graphql-ide/*`: the page's script and style files. */
export function graphqlIdeAssets(): Router {
  const router = Router();
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.get('/page.css', (_req, res) => {
    res.type('text/css').send(PAGE_CSS);
  });
  router.get('/:name', (req, res, next) => {
    const name = req.params.name as string;
    if (!Object.hasOwn(ASSETS, name)) return next();
    const file = ASSETS[name]!;
    res.sendFile(file, { maxAge: '1d' });
  });
  return router;
}
