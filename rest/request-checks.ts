import { getNamedType, isScalarType, type GraphQLField } from 'graphql';
import { appErrorBody, MethodNotAllowedError, NoRouteError, UnsupportedMediaTypeError, type ErrorBody, type FieldError } from '../src/core/errors.js';
import { isJsonContentType } from '../src/http/json-content-type.js';
import { validationErrorBody } from '../src/graphql/error-body.js';
import { matchRoute, type RestRoute, type RouteTable } from './route-table.js';
import { checkArguments } from './variable-check.js';
import { parseBody, type BodyRead } from './request-body.js';

/**
 * The checks a REST request passes before its operation runs, on either path (Sofa's or the direct one,
 * rest/sofa-surface.ts): the route, the body's size, who may run it, the JSON rules, the body's JSON and
 * every argument (named in the refusal).
 */

/** What the checks read of a request, whichever object carries it. */
export interface RequestFacts {
  /** The method as received; a HEAD is checked as its GET. */
  method: string;
  /** The URL the fetch adapter gives Sofa: the path as sent, each query value as Express parsed it. */
  url: URL;
  /** The request target as the client sent it (bracketed query keys are folded from it). */
  originalUrl: string;
  contentType: string | null;
  readBody(): Promise<BodyRead>;
}

export interface CheckRules {
  basePath: string;
  routes: RouteTable;
  jsonBodiesOnly?: boolean;
  fieldOf(operation: string): GraphQLField<unknown, unknown> | undefined;
  /** Who may run the operation, checked before its input is read; an error body when refused. */
  accessRefusal(operation: string): Promise<ErrorBody | undefined>;
}

export type CheckedRequest =
  | { kind: 'refused'; error: ErrorBody; headers?: Record<string, string> }
  | {
      kind: 'checked';
      operation: string;
      route: RestRoute;
      params: Record<string, string>;
      body: Record<string, unknown>;
      bodyText: string;
      /** Query values by name, as Sofa reads them (after folding). */
      query: Record<string, unknown>;
      /** The URL with bracketed JSON arguments folded, when there were any. */
      folded?: URL;
      /** Body keys the client set to null (see `bodyNulls`). */
      nulls: ReadonlySet<string>;
    };

/** Query values by name (a repeated name gives an array), as Sofa reads them for flat arguments. */
export function queryValues(url: URL): Record<string, unknown> {
  const query: Record<string, unknown> = Object.create(null);
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    query[key] = all.length > 1 ? all : all[0];
  }
  return query;
}

/**
 * Explicit nulls in a body. Sofa leaves a null-valued variable out (its parse skips nil values), which
 * would make `{"categoryId": null}` change nothing where GraphQL clears the field. The edge records the
 * body keys the client set to null and the surface's execute puts them back as `null`, so GraphQL's own
 * coercion decides: refused for a non-null argument (already answered 400 naming it by checkArguments),
 * passed to the resolver for a nullable one. Not when Sofa takes the name from the path or a non-empty
 * query value first.
 */
function bodyNulls(body: Record<string, unknown>, params: Record<string, string>, query: Record<string, unknown>): Set<string> {
  const nulls = new Set<string>();
  for (const [key, value] of Object.entries(body)) {
    if (value === null && !Object.hasOwn(params, key) && !query[key]) nulls.add(key);
  }
  return nulls;
}

/**
 * A JSON-typed (scalar) argument given in the query as `name[key]=value` (the records filter,
 * `filter[status]=done`) is folded into one JSON text `name={"key":"value"}` (a repeated key gives an
 * array), which is what Sofa reads for it; input-object arguments keep Sofa's own bracket parsing.
 * Undefined when the URL has nothing to fold.
 */
function foldBracketedScalars(url: URL, field: GraphQLField<unknown, unknown>): URL | undefined {
  const scalars = new Set(field.args.filter((arg) => isScalarType(getNamedType(arg.type))).map((arg) => arg.name));
  const folded = new Map<string, Record<string, string | string[]>>();
  const rest: [string, string][] = [];
  for (const [key, value] of url.searchParams) {
    const m = /^([A-Za-z_]\w*)\[([^\]]*)\]$/.exec(key);
    if (!m || !scalars.has(m[1]!) || url.searchParams.has(m[1]!)) {
      rest.push([key, value]);
      continue;
    }
    const object = folded.get(m[1]!) ?? Object.create(null);
    const before = object[m[2]!];
    object[m[2]!] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
    folded.set(m[1]!, object);
  }
  if (!folded.size) return undefined;
  const next = new URL(url);
  next.search = '';
  for (const [key, value] of rest) next.searchParams.append(key, value);
  for (const [name, object] of folded) next.searchParams.append(name, JSON.stringify({ ...object }));
  return next;
}

/** Body fields that name no argument (or name a path parameter, which the path sets). */
function unknownBodyFields(body: Record<string, unknown>, argNames: readonly string[], pathNames: readonly string[]): FieldError[] {
  return Object.keys(body)
    .filter((key) => !argNames.includes(key) || pathNames.includes(key))
    .map((key) => ({ path: [key], message: `unknown field ${key}` }));
}

/**
 * The CSRF rules of `jsonBodiesOnly`: a non-JSON body (415), or a mutation argument in the query string
 * (400 naming it; Sofa would read it from there). Other query parameters are not read and stay harmless.
 */
function refuseNonJsonSources(facts: RequestFacts, operation: string, argNames: readonly string[], text: string): ErrorBody | undefined {
  const type = facts.contentType;
  if (text.trim() !== '' && !isJsonContentType(type)) return appErrorBody(new UnsupportedMediaTypeError(type ?? undefined));
  if (!operation.startsWith('Mutation.')) return undefined;
  const named = [...new Set(facts.url.searchParams.keys())].filter((key) => argNames.includes(key.split('[')[0]!));
  if (!named.length) return undefined;
  const message = `${facts.method} ${facts.url.pathname} reads its arguments from the path and the JSON body, never the query string`;
  return validationErrorBody(named.map((name) => ({ path: [name], message })));
}

/** Runs the checks in order; the first refusal is the answer. */
export async function checkRequest(facts: RequestFacts, rules: CheckRules): Promise<CheckedRequest> {
  const { url } = facts;
  const method = facts.method === 'HEAD' ? 'GET' : facts.method;
  const match = matchRoute(rules.routes, rules.basePath, method, url.pathname);
  if (match.kind === 'not-found') return { kind: 'refused', error: appErrorBody(new NoRouteError(facts.method, url.pathname)) };
  if (match.kind === 'method-not-allowed') {
    const allow = match.allowed.join(', ');
    return { kind: 'refused', error: appErrorBody(new MethodNotAllowedError(facts.method, url.pathname, allow)), headers: { Allow: allow } };
  }

  // The body is read first (bounded), so the client is not cut off while it is sending.
  const read = await facts.readBody();
  if (!read.ok) return { kind: 'refused', error: read.error };
  // Who may run the operation is checked before its input is read (JSON rules, parsing, arguments):
  // without a session an anonymous `{}` is a 401, not a 400 naming a missing field (issue 34, item 11).
  const denied = await rules.accessRefusal(match.operation);
  if (denied) return { kind: 'refused', error: denied };
  const field = rules.fieldOf(match.operation);
  if (rules.jsonBodiesOnly) {
    const refused = refuseNonJsonSources({ ...facts, method }, match.operation, field?.args.map((a) => a.name) ?? [], read.text);
    if (refused) return { kind: 'refused', error: refused };
  }
  const parsed = parseBody(read.text);
  if (!parsed.ok) return { kind: 'refused', error: parsed.error };

  // The fetch adapter copies Express's parsed `req.query` back onto the URL (a nested value becomes
  // `filter=[object Object]`): brackets are folded from the request target as the client sent it.
  const folded = field ? foldBracketedScalars(new URL(facts.originalUrl, url), field) : undefined;
  const target = folded ?? url;
  const query = queryValues(target);
  const nulls = bodyNulls(parsed.body, match.params, query);
  if (field) {
    // Bracketed query keys (`input[a]=1`) are Sofa's nested form: leave those arguments to Sofa.
    const args = field.args.filter((arg) => ![...target.searchParams.keys()].some((k) => k.startsWith(`${arg.name}[`)));
    const errors = match.route.strictBody ? unknownBodyFields(parsed.body, field.args.map((a) => a.name), Object.keys(match.params)) : [];
    errors.push(...checkArguments(args, { params: match.params, query, body: parsed.body }));
    if (errors.length) {
      const body = validationErrorBody(errors);
      return { kind: 'refused', error: match.route.validationCode ? { ...body, code: match.route.validationCode } : body };
    }
  }
  return { kind: 'checked', operation: match.operation, route: match.route, params: match.params, body: parsed.body, bodyText: read.text, query, folded, nulls };
}
