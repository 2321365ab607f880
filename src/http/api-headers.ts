import type { NextFunction, Request, Response } from 'express';

/** Spec, Versioning 2: every API response carries `API-Version: v1`, errors included. */
export function apiVersionHeader(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('API-Version', 'v1');
  next();
}

/**
 * The unversioned `/api/...` form is deprecated but still works: it is served by the `/api/v1`
 * routes, and says so with `Deprecation` and a `Link` to the successor.
 */
export function deprecatedUnversionedApi(req: Request, res: Response, next: NextFunction): void {
  const url = req.originalUrl;
  // `/api/v1/...`, other versions (`/api/v2`, answered 404) and the Public API are not the deprecated form.
  if (url.startsWith('/api/') && !/^\/api\/(v\d+|public)(\/|\?|$)/.test(url)) {
    const successor = '/api/v1' + url.slice('/api'.length);
    res.setHeader('Deprecation', 'true');
    res.setHeader('Link', `<${successor.split('?')[0]}>; rel="successor-version"`);
    req.url = successor;
    req.originalUrl = successor;
  }
  next();
}
