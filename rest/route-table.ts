
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: HttpMethod;
  path: string;
  /** Success status; defaults to 200. A resolver may override it per request (HttpBridge.setStatus). */
  responseStatus?: 200 | 201;
}

/** `Type.field` of a root operation → its REST route. */
export type RouteTable = Record<string, RestRoute>;

export function toSofaRoutes(table: RouteTable): Record<string, { method: HttpMethod; path: string; responseStatus: 200 | 201 }> {
  return Object.fromEntries(
    Object.entries(table).map(([operation, route]) => [
      operation,
      { method: route.method, path: route.path, responseStatus: route.responseStatus ?? 200 },
    ]),
  );
}

/** Methods that some route answers for this path (to tell 405 from 404). */
export function methodsForPath(table: RouteTable, basePath: string, pathname: string): HttpMethod[] {
  const methods = new Set<HttpMethod>();
  for (const route of Object.values(table)) {
    const pattern = new RegExp(
      '^' + (basePath + route.path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+') + '/?$',
    );
    if (pattern.test(pathname)) methods.add(route.method);
  }
  return [...methods];
}
