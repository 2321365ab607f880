
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The relations (object-typed fields) a REST answer includes, by name, nested: `true` is the relation
 * with its own leaf fields only. Leaf fields (scalars, enums and lists of them) are all included, or those
 * the route's `fields` name for their type.
 */
export interface AnswerShape {
  [relation: string]: true | AnswerShape;
}

/**
 * The leaf fields (scalars, enums and lists of them) a REST answer gives of each object type named, where
 * the spec's table names that type's fields: `Type: ['id', 'title', …]`. A type not named answers every
 * leaf field. Relations are chosen by the answer shape (or Sofa's default), never here.
 */
export type AnswerFields = Readonly<Record<string, readonly string[]>>;

export interface RestRoute {
  method: HttpMethod;
  path: string;
  /** Success status; defaults to 200. A resolver may override it per request (HttpBridge.setStatus). */
  responseStatus?: 200 | 201;
  /**
   * The status a resolver answers instead of `responseStatus` when the record already existed (a
   * repeated `generate`: HttpBridge.setStatus(200)); the OpenAPI documents describe both.
   */
  existingStatus?: 200;
  /** What `existingStatus` means on this route, when it is not "it existed already" (quick add's dry run). */
  existingStatusMeans?: string;
  /**
   * The answer's shape where the spec's table fixes one (rest/answer-shape.ts). Without it the answer is
   * Sofa's default: every field reachable within the surface's depth limit.
   */
  answer?: AnswerShape;
  /**
   * The leaf fields answered per type (rest/answer-shape.ts), over the shape above or Sofa's default one:
   * the spec's fields, not the bookkeeping a GraphQL client may still ask for (issue 36, item 6).
   */
  fields?: AnswerFields;
  /**
   * A body field that is no argument of the operation is refused (400 naming it) instead of being left
   * unread: for routes whose services refuse unknown fields by rule (the Brain's databases and forms).
   */
  strictBody?: true;
  /**
   * The code of this route's input refusals (argument checks, strictBody) when the spec gives the route
   * its own (Brain form submit: `VALIDATION`); default VALIDATION_ERROR.
   */
  validationCode?: 'VALIDATION';
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

const patterns = new Map<string, RegExp>();

/** The compiled pattern of a route (made once: every request matches against every route). */
function routePattern(basePath: string, path: string): RegExp {
  const cached = patterns.get(basePath + path);
  if (cached) return cached;
  const pattern = compilePattern(basePath, path);
  patterns.set(basePath + path, pattern);
  return pattern;
}

function compilePattern(basePath: string, path: string): RegExp {
  const escaped = (basePath + path)
    .split(/(:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (part.startsWith(':') ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${escaped}/?$`);
}

interface CompiledRoute {
  operation: string;
  route: RestRoute;
  pattern: RegExp;
}

/** Compiled patterns per route table and base path: built once, not on every request. */
const compiledTables = new WeakMap<RouteTable, Map<string, CompiledRoute[]>>();

function compiledRoutes(table: RouteTable, basePath: string): CompiledRoute[] {
  let byBase = compiledTables.get(table);
  if (!byBase) compiledTables.set(table, (byBase = new Map()));
  let compiled = byBase.get(basePath);
  if (!compiled) {
    compiled = Object.entries(table).map(([operation, route]) => ({ operation, route, pattern: routePattern(basePath, route.path) }));
    byBase.set(basePath, compiled);
  }
  return compiled;
}

export type RouteMatch =
  | { kind: 'route'; operation: string; route: RestRoute; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: (HttpMethod | 'HEAD')[] }
  | { kind: 'not-found' };

/**
 * Which operation answers `method pathname` (path parameters decoded), or why none does. When a literal
 * path and a parameter path both match (`/tasks/today`, `/tasks/:id`), the one with fewer parameters wins.
 */
export function matchRoute(table: RouteTable, basePath: string, method: string, pathname: string): RouteMatch {
  const allowed = new Set<HttpMethod>();
  let best: Extract<RouteMatch, { kind: 'route' }> | undefined;
  for (const { operation, route, pattern } of compiledRoutes(table, basePath)) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    allowed.add(route.method);
    if (route.method !== method.toUpperCase()) continue;
    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(match.groups ?? {})) {
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        params[name] = raw;
      }
    }
    if (!best || Object.keys(params).length < Object.keys(best.params).length) best = { kind: 'route', operation, route, params };
  }
  if (best) return best;
  if (!allowed.size) return { kind: 'not-found' };
  // The surface answers a HEAD as its GET (rest/sofa-surface.ts), so HEAD is allowed wherever GET is.
  return { kind: 'method-not-allowed', allowed: allowed.has('GET') ? [...allowed, 'HEAD'] : [...allowed] };
}
