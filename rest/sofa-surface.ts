import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { execute, getNamedType, getOperationAST, isScalarType, type ExecutionArgs, type ExecutionResult, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { AppContext } from '../src/core/context.js';
import type { Logger } from '../src/core/logger.js';
import { AppError, appErrorBody, internalErrorBody, MethodNotAllowedError, NoRouteError, PayloadTooLargeError, UnsupportedMediaTypeError, type FieldError } from '../src/core/errors.js';
import { isJsonContentType } from '../src/http/json-content-type.js';
import { errorBodyFromGraphQLError, validationErrorBody } from '../src/graphql/error-body.js';
import { executeWithinLimits } from '../src/graphql/limited-execution.js';
import { errorResponse, successEnvelope } from '../src/http/envelope.js';
import { schemaForRoutes } from './prune-schema.js';
import { routeDocuments } from './answer-shape.js';
import { matchRoute, toSofaRoutes, type RouteTable } from './route-table.js';
import { checkArguments } from './variable-check.js';
import { STATUS_OVERRIDE } from '../src/http/status-override.js';
import { checkOperationAccess } from '../src/accounts/operation-access.js';

/** Sofa's selection depth for a surface (here, not in sofa-operations.ts, which loads Sofa). */
export const SOFA_DEPTH_LIMIT = 1;

export interface ServerContext {
  req: ExpressRequest;
  res: ExpressResponse;
}

export interface SurfaceOptions {
  basePath: string;
  schema: GraphQLSchema;
  routes: RouteTable;
  logger: Logger;
  /** Largest request body read, in bytes; a larger one is answered 413 (chunked bodies included). */
  maxBodyBytes: number;
  context(server: ServerContext): Promise<AppContext>;
  /**
   * Build Sofa's OpenAPI document (read with `openAPIDocument()`; it is served by no route of the
   * surface: the route table answers 404 for its internal endpoint).
   */
  describe?: { title: string; version: string; description?: string };
  /**
   * The cookie-authenticated surface's CSRF rules: a body must be sent as JSON (415 otherwise), and a
   * mutation's arguments come from the path and the body only (query parameters are refused, 400).
   */
  jsonBodiesOnly?: boolean;
}

type BodyRead = { ok: true; text: string } | { ok: false; response: Response };

/** Past the limit the rest is read off and dropped (up to this much), so the client gets the 413. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/** Reads the body, keeping at most `limit` bytes; a larger one is answered 413. */
async function readBody(request: Request, limit: number): Promise<BodyRead> {
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size <= limit) chunks.push(value);
    else if (size > limit + DRAIN_BYTES) {
      void reader.cancel().catch(() => undefined);
      break;
    }
  }
  if (size > limit) {
    return { ok: false, response: errorResponse(new PayloadTooLargeError(limit)) };
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

function parseBody(text: string): { ok: true; body: Record<string, unknown> } | { ok: false; response: Response } {
  if (!text.trim()) return { ok: true, body: {} };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message.slice(0, 200);
    return { ok: false, response: errorResponse(validationErrorBody([{ path: [], message: `Request body is not valid JSON: ${reason}` }])) };
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { ok: false, response: errorResponse(validationErrorBody([{ path: [], message: 'Request body must be a JSON object' }])) };
  }
  return { ok: true, body: body as Record<string, unknown> };
}

/** Query values by name (a repeated name gives an array), as Sofa reads them for flat arguments. */
function queryValues(url: URL): Record<string, unknown> {
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
 * body keys the client set to null (per express request, then per context) and `executeForSofa` puts
 * them back as `null`, so GraphQL's own coercion decides: refused for a non-null argument (already
 * answered 400 naming it by checkArguments), passed to the resolver for a nullable one.
 */
const nullsByRequest = new WeakMap<object, ReadonlySet<string>>();
const nullsByContext = new WeakMap<object, ReadonlySet<string>>();

/** Body keys set to null, unless Sofa takes that name from the path or a non-empty query value first. */
function bodyNulls(body: Record<string, unknown>, params: Record<string, string>, query: Record<string, unknown>): Set<string> {
  const nulls = new Set<string>();
  for (const [key, value] of Object.entries(body)) {
    if (value === null && !Object.hasOwn(params, key) && !query[key]) nulls.add(key);
  }
  return nulls;
}

/**
 * Sofa answers `data[field]` as the JSON body of a success: putting the documented envelope there (a
 * page `{ items, meta }` becomes `data` + `meta`) has Sofa serialise the final body once, instead of
 * the edge parsing or re-wrapping Sofa's text.
 */
function enveloped(result: ExecutionResult): ExecutionResult {
  if (result.errors || !result.data) return result;
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(result.data)) data[field] = successEnvelope(value);
  return { ...result, data };
}

/**
 * The surface's execute: the one executor (src/graphql/limited-execution.ts), with `null` added for
 * each operation variable the body set to null and Sofa left out, answering the envelope.
 */
function executeForSofa(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
  const nulls = args.contextValue && typeof args.contextValue === 'object' ? nullsByContext.get(args.contextValue) : undefined;
  let variableValues = args.variableValues;
  if (nulls?.size) {
    const withNulls: Record<string, unknown> = { ...variableValues };
    for (const definition of getOperationAST(args.document, args.operationName)?.variableDefinitions ?? []) {
      const name = definition.variable.name.value;
      if (nulls.has(name) && withNulls[name] === undefined) withNulls[name] = null;
    }
    variableValues = withNulls;
  }
  // The same limits as /graphql (a route's document is fixed; its variables set the page size).
  const result = executeWithinLimits({ ...args, variableValues });
  return result instanceof Promise ? result.then(enveloped) : enveloped(result);
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

/** The body stream is read: a request for Sofa carrying the same text. */
function withBodyText(request: Request, text: string): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && text !== '';
  return new Request(request.url, { method: request.method, headers, body: hasBody ? text : undefined });
}

/**
 * The CSRF rules of `jsonBodiesOnly`: a non-JSON body (415), or a mutation argument in the query string
 * (400 naming it; Sofa would read it from there). Other query parameters are not read and stay harmless.
 */
function refuseNonJsonSources(request: Request, url: URL, operation: string, argNames: readonly string[], text: string): Response | undefined {
  const type = request.headers.get('content-type');
  if (text.trim() !== '' && !isJsonContentType(type)) return errorResponse(appErrorBody(new UnsupportedMediaTypeError(type ?? undefined)));
  if (!operation.startsWith('Mutation.')) return undefined;
  const named = [...new Set(url.searchParams.keys())].filter((key) => argNames.includes(key.split('[')[0]!));
  if (!named.length) return undefined;
  const message = `${request.method} ${url.pathname} reads its arguments from the path and the JSON body, never the query string`;
  return errorResponse(validationErrorBody(named.map((name) => ({ path: [name], message }))));
}

export interface SofaSurface {
  /** The surface's handler (Express's request and response). */
  adapter(req: ExpressRequest, res: ExpressResponse): Promise<unknown>;
  /** Sofa's OpenAPI document (see `SurfaceOptions.describe`). */
  openAPIDocument(): Promise<Record<string, unknown>>;
}

/**
 * One REST surface generated by Sofa from the GraphQL schema, limited to its route table, with the
 * documented envelopes added around Sofa's raw answers. Before Sofa runs, this edge answers unknown
 * routes (404) and wrong methods (405), limits and parses the body, and checks every argument with
 * GraphQL's input coercion so that a refusal names its field.
 *
 * Sofa, its router (fets, TypeBox: ~350 modules) and the surface's routes are loaded and generated by
 * the surface's first request, not at start-up (issue 18: they were a fifth of the start's CPU); the
 * requests arriving meanwhile wait for the same build.
 */
export function createSofaSurface(options: SurfaceOptions): SofaSurface {
  let built: ReturnType<typeof buildSofaSurface> | undefined;
  const surface = () => (built ??= buildSofaSurface(options));
  return {
    adapter: async (req, res) => (await surface()).adapter(req, res),
    openAPIDocument: async () => (await surface()).openAPIDocument(),
  };
}

async function buildSofaSurface(options: SurfaceOptions) {
  const [{ useSofa }, { createServerAdapter }] = await Promise.all([import('sofa-api'), import('@whatwg-node/server')]);
  const { basePath, routes, logger, maxBodyBytes } = options;
  const schema = schemaForRoutes(options.schema, routes);
  // A route with a declared answer shape runs its own selection in place of Sofa's everything-reachable one,
  // and one with declared answer fields leaves the other leaf fields out.
  const documentFor = routeDocuments(schema, routes, SOFA_DEPTH_LIMIT);
  const sofa = useSofa({
    basePath,
    schema,
    routes: toSofaRoutes(routes),
    depthLimit: SOFA_DEPTH_LIMIT,
    context: async (server) => {
      const { req } = server as unknown as ServerContext;
      // The context the access check was run with (one session read per request).
      const context = contexts.get(req) ?? (await options.context(server as unknown as ServerContext));
      const nulls = nullsByRequest.get(req);
      if (nulls) nullsByContext.set(context, nulls);
      return context;
    },
    execute: ((args: ExecutionArgs) =>
      executeForSofa({ ...args, document: documentFor(args.operationName, args.document) })) as typeof execute,
    openAPI: options.describe ? { endpoint: '/__sofa-openapi.json', info: options.describe } : { endpoint: false },
    swaggerUI: { endpoint: false },
    errorHandler(errors) {
      const first = errors[0];
      const { body, internal } = errorBodyFromGraphQLError(first);
      if (internal) logger.error({ err: first?.originalError ?? first }, 'unhandled error');
      // Sofa types its Response as fets' own; the WHATWG Response it gets is the same at run time.
      return errorResponse(body) as never;
    },
  });

  function fieldOf(operation: string): GraphQLField<unknown, unknown> | undefined {
    const [typeName, fieldName] = operation.split('.') as [string, string];
    const type = typeName === 'Mutation' ? schema.getMutationType() : schema.getQueryType();
    return type?.getFields()[fieldName];
  }

  const contexts = new WeakMap<object, AppContext>();

  /**
   * Who may run the operation is checked before its input is read (JSON rules, parsing, arguments):
   * without a session an anonymous `{}` is a 401, not a 400 naming a missing field (issue 34, item 11).
   * The body is still read first (bounded), so the client is not cut off while it is sending.
   */
  async function accessRefusal(operation: string, server: ServerContext): Promise<Response | undefined> {
    const context = await options.context(server);
    contexts.set(server.req, context);
    try {
      checkOperationAccess(context, operation.slice(operation.indexOf('.') + 1));
      return undefined;
    } catch (error) {
      if (error instanceof AppError) return errorResponse(appErrorBody(error));
      throw error;
    }
  }

  async function handle(received: Request, server: ServerContext): Promise<Response> {
    // A HEAD is answered as its GET (Node sends the headers only).
    const request = received.method === 'HEAD' ? new Request(received.url, { method: 'GET', headers: received.headers }) : received;
    const url = new URL(request.url);
    const match = matchRoute(routes, basePath, request.method, url.pathname);
    if (match.kind === 'not-found') {
      return errorResponse(new NoRouteError(received.method, url.pathname));
    }
    if (match.kind === 'method-not-allowed') {
      const allow = match.allowed.join(', ');
      return errorResponse(new MethodNotAllowedError(received.method, url.pathname, allow), { Allow: allow });
    }

    const bodyless = request.body == null; // then Sofa gets the request itself (no stream was read)
    const read = await readBody(request, maxBodyBytes);
    if (!read.ok) return read.response;
    const denied = await accessRefusal(match.operation, server);
    if (denied) return denied;
    const field = fieldOf(match.operation);
    if (options.jsonBodiesOnly) {
      const refused = refuseNonJsonSources(request, url, match.operation, field?.args.map((a) => a.name) ?? [], read.text);
      if (refused) return refused;
    }
    const parsed = parseBody(read.text);
    if (!parsed.ok) return parsed.response;

    // The Node adapter copies Express's parsed `req.query` back onto the URL (a nested value becomes
    // `filter=[object Object]`): brackets are folded from the request target as the client sent it.
    const folded = field ? foldBracketedScalars(new URL(server.req.originalUrl ?? `${url.pathname}${url.search}`, url), field) : undefined;
    const target = folded ?? url;
    const query = queryValues(target);
    nullsByRequest.set(server.req, bodyNulls(parsed.body, match.params, query));
    if (field) {
      // Bracketed query keys (`input[a]=1`) are Sofa's nested form: leave those arguments to Sofa.
      const args = field.args.filter((arg) => ![...target.searchParams.keys()].some((k) => k.startsWith(`${arg.name}[`)));
      const errors = match.route.strictBody ? unknownBodyFields(parsed.body, field.args.map((a) => a.name), Object.keys(match.params)) : [];
      errors.push(...checkArguments(args, { params: match.params, query, body: parsed.body }));
      if (errors.length) {
        const body = validationErrorBody(errors);
        return errorResponse(match.route.validationCode ? { ...body, code: match.route.validationCode } : body);
      }
    }

    const forSofa = folded ? new Request(folded, { method: request.method, headers: request.headers, body: bodyless ? undefined : read.text || undefined }) : bodyless ? request : withBodyText(request, read.text);
    const response = (await sofa.fetch(forSofa, server)) as Response | undefined;
    if (!response) {
      return errorResponse(new NoRouteError(request.method, url.pathname));
    }
    // A failed operation never sets a cookie.
    if (!response.ok) server.res.removeHeader('Set-Cookie');
    if (response.ok) {
      // A resolver may choose the status (201 on creation, 200 when it already existed).
      const status = server.res.locals[STATUS_OVERRIDE] as number | undefined;
      if (status && status !== response.status) return new Response(response.body, { status, headers: response.headers });
    }
    return response;
  }

  const adapter = createServerAdapter<ServerContext>(async (request, server) => {
    try {
      return await handle(request, server);
    } catch (error) {
      logger.error({ err: error }, 'unhandled error');
      return errorResponse(internalErrorBody());
    }
  });

  return { adapter, openAPIDocument: () => (sofa as unknown as { openAPIDocument: Record<string, unknown> }).openAPIDocument };
}
