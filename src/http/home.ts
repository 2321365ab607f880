import { Router } from 'express';
import escapeHtml from 'escape-html';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Name, version and description from the project's package.json (the nearest one above this file, from src/ or dist/). */
export function packageInfo(): { name: string; version: string; description: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string; description?: string };
      return { name: pkg.name ?? 'life-planner', version: pkg.version ?? '0.0.0', description: pkg.description ?? '' };
    }
    const parent = dirname(dir);
    if (parent === dir) return { name: 'life-planner', version: '0.0.0', description: '' };
    dir = parent;
  }
}

/** Where a client goes from `/`. */
export const HOME_LINKS = [
  { rel: 'graphql', href: '/graphql', title: 'GraphQL API (POST; GET from a browser opens the GraphQL IDE)' },
  { rel: 'graphql-ide', href: '/graphql', title: 'GraphQL IDE (GraphiQL)' },
  { rel: 'session-api', href: '/api/v1', title: 'Session API (REST)' },
  { rel: 'session-api-docs', href: '/api/v1/docs', title: 'Session API reference' },
  { rel: 'session-api-openapi', href: '/api/v1/openapi.yaml', title: 'Session API OpenAPI description' },
  { rel: 'public-api', href: '/api/public/v1', title: 'Public API (REST, API keys)' },
  { rel: 'public-api-docs', href: '/api/public/v1/docs', title: 'Public API reference' },
  { rel: 'public-api-openapi', href: '/api/public/v1/openapi.yaml', title: 'Public API OpenAPI description' },
  { rel: 'mcp', href: '/mcp', title: 'Assistant connector (MCP, Streamable HTTP; OAuth bearer token)' },
  { rel: 'oauth-authorization-server', href: '/.well-known/oauth-authorization-server', title: 'Assistant connector OAuth metadata' },
  { rel: 'oauth-protected-resource', href: '/.well-known/oauth-protected-resource', title: 'Assistant connector protected resource metadata' },
  { rel: 'health', href: '/healthz', title: 'Liveness' },
  { rel: 'readiness', href: '/readyz', title: 'Readiness' },
] as const;

/** The links a browser follows (the API roots themselves answer only API calls). */
const PAGE_LINKS = HOME_LINKS.filter((link) => !['graphql', 'session-api', 'public-api', 'mcp'].includes(link.rel));

function page(info: ReturnType<typeof packageInfo>): string {
  const items = PAGE_LINKS.map((link) => `    <li><a href="${escapeHtml(link.href)}">${escapeHtml(link.title)}</a> <code>${escapeHtml(link.href)}</code></li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(info.name)} ${escapeHtml(info.version)}</title>
  <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; } code { color: #555; }</style>
</head>
<body>
  <h1>${escapeHtml(info.name)} <small>${escapeHtml(info.version)}</small></h1>
  <p>${escapeHtml(info.description)}</p>
  <ul>
${items}
  </ul>
</body>
</html>
`;
}

/** `GET /`: a page for browsers, the same links as JSON for API clients (content negotiation on Accept). */
export function homeRoutes(): Router {
  const router = Router();
  const info = packageInfo();
  const html = page(info);
  const json = { ok: true, data: { name: info.name, version: info.version, description: info.description, links: HOME_LINKS } };
  router.get('/', (req, res) => {
    res.setHeader('Vary', 'Accept');
    if (req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'");
      res.type('html').send(html);
      return;
    }
    res.json(json);
  });
  return router;
}
