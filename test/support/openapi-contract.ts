import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/**
 * The OpenAPI documents as a contract of the test suite (issue 23, item 22): every exchange the test
 * HTTP client makes with `/api/v1` or `/api/public/v1` is checked against the document the service
 * serves there: the route and its answer's status must be described, a JSON answer must match its
 * schema, and the JSON body of a request that succeeded must match its request schema. A drift fails
 * the test that made the request. `OPENAPI_CONTRACT=record` (with `OPENAPI_CONTRACT_LOG=<file>`)
 * writes each breach as a JSON line instead, to list every drift of a run at once. The documents are
 * the ones the service served when the run started (test/support/global-setup.ts, LP_OPENAPI_DOCUMENTS);
 * outside the test run (the benchmarks use this client too) nothing is checked.
 */

export interface Exchange {
  baseUrl: string;
  method: string;
  /** The path as requested, query included. */
  path: string;
  /** The JSON the request sent, if any. */
  requestBody?: unknown;
  status: number;
  contentType: string | null;
  body: unknown;
}

/** The REST surfaces whose documents are checked (longest prefix first), and the file each is kept in. */
export const CONTRACT_SURFACES = [
  { prefix: '/api/public/v1', documentPath: '/api/public/v1/openapi.yaml', file: 'public-api.yaml' },
  { prefix: '/api/v1', documentPath: '/api/v1/openapi.yaml', file: 'session-api.yaml' },
] as const;

type Surface = (typeof CONTRACT_SURFACES)[number];

/** Served beside the routes, described by no route: the documents and their reference pages. */
const UNDESCRIBED = /^\/(openapi\.yaml|docs)(\/|$)/;

interface Operation {
  template: string;
  pattern: RegExp;
  parameters: number;
  methods: Record<string, any>;
}

interface LoadedContract {
  operations: Operation[];
  /** `components.responses`, which operations name by `$ref`. */
  responses: Record<string, any>;
  ajv: Ajv;
  id: string;
  compiled: Map<string, ValidateFunction>;
}

const contracts = new Map<string, Promise<LoadedContract>>();

/**
 * An OpenAPI 3.0 Schema Object as JSON Schema (draft-07, what Ajv reads): `nullable` adds `null` to
 * whatever the schema allows (an enum or an `allOf` of a `$ref` included), the boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become numbers, and component refs point into the document
 * added to Ajv under `id`.
 */
export function toJsonSchema(value: unknown, id: string): unknown {
  if (Array.isArray(value)) return value.map((item) => toJsonSchema(item, id));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/')) out.$ref = `${id}${child}`;
    else if (key === 'nullable' || key === 'example' || key === 'discriminator' || key === 'xml' || key === 'externalDocs' || key === 'deprecated') continue;
    else out[key] = toJsonSchema(child, id);
  }
  const source = value as Record<string, unknown>;
  if (source.exclusiveMinimum === true) {
    out.exclusiveMinimum = source.minimum;
    delete out.minimum;
  } else if (source.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (source.exclusiveMaximum === true) {
    out.exclusiveMaximum = source.maximum;
    delete out.maximum;
  } else if (source.exclusiveMaximum === false) delete out.exclusiveMaximum;
  return source.nullable === true ? { anyOf: [{ type: 'null' }, out] } : out;
}

function templatePattern(template: string): RegExp {
  const escaped = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${escaped}/?$`);
}

async function loadContract(dir: string, surface: Surface): Promise<LoadedContract> {
  const document = parse(await readFile(join(dir, surface.file), 'utf8'));
  const id = `https://contract.test${surface.prefix}/openapi.json`;
  // A standard validator's settings (no multipleOfPrecision): the documents must hold for any client's (issue 34, item 15).
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(format, true);
  ajv.addSchema({ $id: id, components: toJsonSchema({ schemas: document.components?.schemas ?? {} }, id) });
  const operations = Object.entries<Record<string, any>>(document.paths ?? {}).map(([template, methods]) => ({
    template,
    pattern: templatePattern(template),
    parameters: (template.match(/\{/g) ?? []).length,
    methods,
  }));
  return { operations, responses: document.components?.responses ?? {}, ajv, id, compiled: new Map() };
}

function contractOf(dir: string, surface: Surface): Promise<LoadedContract> {
  let loaded = contracts.get(surface.prefix);
  if (!loaded) {
    loaded = loadContract(dir, surface);
    contracts.set(surface.prefix, loaded);
    loaded.catch(() => contracts.delete(surface.prefix));
  }
  return loaded;
}

/** The described operation of `method pathname`: a literal path wins over a templated one. */
function findOperation(contract: LoadedContract, method: string, pathname: string, status: number): { template: string; operation: any } | 'no-path' | 'no-method' {
  const matches = contract.operations.filter((op) => op.pattern.test(pathname)).sort((a, b) => a.parameters - b.parameters);
  if (!matches.length) return 'no-path';
  // `GET /files/upload` is the upload path's wrong method (405), not a file named "upload".
  if (status === 405 && !matches[0]!.methods[method.toLowerCase()]) return 'no-method';
  for (const match of matches) {
    const operation = match.methods[method.toLowerCase()];
    if (operation) return { template: match.template, operation };
  }
  return 'no-method';
}

function validator(contract: LoadedContract, key: string, schema: unknown): ValidateFunction {
  let validate = contract.compiled.get(key);
  if (!validate) {
    validate = contract.ajv.compile(toJsonSchema(schema, contract.id) as object);
    contract.compiled.set(key, validate);
  }
  return validate;
}

const isJson = (contentType: string | null) => Boolean(contentType && /^application\/([\w.+-]+\+)?json\b/i.test(contentType));

/** The breaches of one exchange (empty when it keeps the contract). */
export async function contractBreaches(exchange: Exchange): Promise<string[]> {
  const url = new URL(exchange.path, exchange.baseUrl);
  const dir = process.env.LP_OPENAPI_DOCUMENTS;
  if (!dir) return [];
  const surface = CONTRACT_SURFACES.find((s) => url.pathname === s.prefix || url.pathname.startsWith(`${s.prefix}/`));
  if (!surface) return [];
  const pathname = url.pathname.slice(surface.prefix.length) || '/';
  if (UNDESCRIBED.test(pathname)) return [];
  const contract = await contractOf(dir, surface);
  const method = exchange.method.toUpperCase() === 'HEAD' ? 'GET' : exchange.method.toUpperCase();
  const found = findOperation(contract, method, pathname, exchange.status);
  const where = `${exchange.method} ${surface.prefix}${pathname}`;
  // A path or method the document does not have must be refused as such (or by the limits and the key
  // check that come before routing).
  if (found === 'no-path') return [401, 404, 429].includes(exchange.status) ? [] : [`${where}: answered ${exchange.status}, but the document describes no such path`];
  if (found === 'no-method') return exchange.status === 405 ? [] : [`${where}: answered ${exchange.status}, but the document describes no ${method} here`];

  const breaches: string[] = [];
  const label = `${method} ${surface.prefix}${found.template}`;
  const described = found.operation.responses?.[String(exchange.status)] ?? found.operation.responses?.default;
  const response = typeof described?.$ref === 'string' ? contract.responses[described.$ref.split('/').pop()] : described;
  if (!response) breaches.push(`${label}: status ${exchange.status} is not described (described: ${Object.keys(found.operation.responses ?? {}).join(', ')})`);
  else if (exchange.method.toUpperCase() !== 'HEAD' && isJson(exchange.contentType)) {
    const schema = response.content?.['application/json']?.schema;
    if (!schema) breaches.push(`${label} ${exchange.status}: answered JSON, but the document describes no JSON answer`);
    else {
      const validate = validator(contract, `${label} ${exchange.status}`, schema);
      if (!validate(exchange.body)) breaches.push(`${label} ${exchange.status}: the answer does not match: ${describeErrors(validate, exchange.body)}`);
    }
  }
  if (exchange.status >= 200 && exchange.status < 300 && exchange.requestBody !== undefined) {
    const schema = found.operation.requestBody?.content?.['application/json']?.schema;
    const empty = exchange.requestBody !== null && typeof exchange.requestBody === 'object' && !Object.keys(exchange.requestBody).length;
    // An empty object sent to a route that takes no body is no field the document could name.
    if (!schema) {
      if (!empty) breaches.push(`${label}: a JSON body was accepted, but the document describes none`);
    } else {
      const validate = validator(contract, `${label} request`, schema);
      if (!validate(exchange.requestBody)) breaches.push(`${label}: the accepted request body does not match: ${describeErrors(validate, exchange.requestBody)}`);
    }
  }
  return breaches;
}

function valueAt(data: unknown, pointer: string): unknown {
  let at: any = data;
  for (const part of pointer.split('/').slice(1)) at = at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return at;
}

function describeErrors(validate: ValidateFunction, data: unknown): string {
  // anyOf alternatives repeat each other: keep the deepest, most specific messages.
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'anyOf');
  return errors
    .slice(0, 5)
    .map((e) => {
      const value = JSON.stringify(valueAt(data, e.instancePath)) ?? 'undefined';
      return `${e.instancePath || '(root)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''} [value ${value.slice(0, 80)}] at ${e.schemaPath}`;
    })
    .join('; ');
}

const recording = () => process.env.OPENAPI_CONTRACT === 'record';

/** Checks one exchange: throws on a breach, or records it (OPENAPI_CONTRACT=record); off with OPENAPI_CONTRACT=off. */
export async function checkContract(exchange: Exchange): Promise<void> {
  if (process.env.OPENAPI_CONTRACT === 'off') return;
  const breaches = await contractBreaches(exchange);
  if (!breaches.length) return;
  if (recording()) {
    const log = process.env.OPENAPI_CONTRACT_LOG ?? '/tmp/openapi-contract.jsonl';
    for (const breach of breaches) appendFileSync(log, `${JSON.stringify({ breach })}\n`);
    return;
  }
  throw new Error(`The exchange breaks the OpenAPI document:\n- ${breaches.join('\n- ')}`);
}
