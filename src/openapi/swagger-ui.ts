import express, { Router, type Request, type Response } from 'express';
import escapeHtml from 'escape-html';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** swagger-ui-dist's folder, found without loading its (browser) bundle into Node. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files of swagger-ui-dist the page uses (its own index.html points at a remote example). */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-16x16.png', 'favicon-32x32.png']);

function page(base: string, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="${base}/docs/init.js"></script>
</body>
</html>
`;
}

function init(base: string): string {
  // validatorUrl null: Swagger UI would otherwise send the document to an online validator.
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(`${base}/openapi.yaml`)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'BaseLayout',
  persistAuthorization: false
});
`;
}

export interface DocsPageOptions {
  /** The surface's base path: the page reads `<base>/openapi.yaml` and lives at `<base>/docs`. */
  base: string;
  title: string;
  /** Answers a request for an asset the page does not use, in the surface's error shape. */
  notFound(req: Request, res: Response): void;
}

/** `GET <base>/docs`: an interactive reference (Swagger UI) of the OpenAPI document, from local assets only. */
export function docsRoutes({ base, title, notFound }: DocsPageOptions): Router {
  const router = Router();
  const html = page(base, title);
  const script = init(base);
  router.get('/docs', (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'");
    res.type('html').send(html);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(script);
  });
  const statics = express.static(SWAGGER_UI_DIR, { index: false, fallthrough: false, maxAge: '1d' });
  router.use('/docs/assets', (req, res, next) => {
    const name = req.path.replace(/^\//, '');
    if (!ASSETS.has(name)) {
      notFound(req, res);
      return;
    }
    statics(req, res, next);
  });
  return router;
}
