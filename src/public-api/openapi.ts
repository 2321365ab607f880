import { getMetadataStorage as validationStorage } from 'class-validator';
import { getMetadataStorage as graphqlStorage } from 'type-graphql';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { stringify } from 'yaml';
import type { RouteTable } from '../../rest/route-table.js';

type Json = Record<string, any>;

/** Scalars described inline (Sofa leaves custom scalars as references to components it never defines). */
const SCALARS: Record<string, Json> = {
  DateTimeISO: { type: 'string', format: 'date-time', example: '2026-11-22T07:30:00Z' },
  UUID: { type: 'string', format: 'uuid' },
  LocalDate: { type: 'string', format: 'date' },
};

/** Examples for fields whose generated example would be meaningless (Swagger UI makes "_" from a pattern). */
const EXAMPLES: Record<string, unknown> = { splitLabel: 'Push', type: 'run' };

const ROUTE_SUMMARIES: Record<string, string> = {
  publicSearchExercises: 'Search the exercise catalog',
  publicLogWater: 'Log water',
  publicLogWorkout: 'Log a workout',
  publicLogSteps: 'Log steps',
  publicLogMeditation: 'Log meditation',
  publicLogCardio: 'Log cardio',
  publicLogMood: 'Log mood and energy',
  publicLogSleep: 'Log sleep',
  publicLogBodyMetrics: 'Log body metrics',
};

const ERROR_RESPONSES: Record<string, Json> = {
  '400': { $ref: '#/components/responses/ValidationError' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '429': { $ref: '#/components/responses/RateLimited' },
  '500': { $ref: '#/components/responses/InternalError' },
};

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** class-validator rules of a class → OpenAPI keywords per property. */
function constraintsOf(target: Function | undefined): Map<string, Json> {
  const out = new Map<string, Json>();
  if (!target) return out;
  const rules = validationStorage().getTargetValidationMetadatas(target, '', true, false);
  for (const rule of rules) {
    const keywords = out.get(rule.propertyName) ?? {};
    const [value] = rule.constraints ?? [];
    switch (rule.name) {
      case 'min':
        keywords.minimum = value;
        break;
      case 'max':
        keywords.maximum = value;
        break;
      case 'isPositive':
        keywords.minimum = 0;
        keywords.exclusiveMinimum = true;
        break;
      case 'minLength':
        keywords.minLength = value;
        break;
      case 'maxLength':
        keywords.maxLength = value;
        break;
      case 'arrayMaxSize':
        keywords.maxItems = value;
        break;
      case 'matches':
        if (String(value) === '/\\S/') keywords.pattern = '\\S';
        break;
      default:
        break;
    }
    out.set(rule.propertyName, keywords);
  }
  return out;
}

/** Args class of each root field, and class of each input object, from type-graphql's metadata. */
function sources(): { argsOf(field: string): Function | undefined; inputClass(name: string): Function | undefined } {
  const storage = graphqlStorage();
  const args = new Map<string, Function>();
  for (const resolver of [...storage.queries, ...storage.mutations]) {
    const param = resolver.params?.find((p) => p.kind === 'args');
    if (param && 'getType' in param) args.set(resolver.schemaName, param.getType() as Function);
  }
  const inputs = new Map<string, Function>(storage.inputTypes.map((i) => [i.name, i.target]));
  return { argsOf: (field) => args.get(field), inputClass: (name) => inputs.get(name) };
}

/** `{ $ref, description }` → a valid 3.0 schema (siblings of $ref are ignored), scalars inlined, rules added. */
function fixSchema(schema: Json, rules: Json = {}): Json {
  if (!schema || typeof schema !== 'object') return schema;
  const { description, ...rest } = schema;
  let out: Json;
  const ref: string | undefined = rest.$ref;
  const scalar = ref ? SCALARS[ref.replace('#/components/schemas/', '')] : undefined;
  if (scalar) out = { ...scalar };
  else if (ref) out = Object.keys(rules).length || description ? { allOf: [{ $ref: ref }] } : { $ref: ref };
  else if (rest.type === 'array') {
    const { maxItems, ...itemRules } = rules;
    void itemRules;
    out = { ...rest, items: fixSchema(rest.items), ...(maxItems !== undefined ? { maxItems } : {}) };
  } else out = { ...rest };
  if (rest.type !== 'array') Object.assign(out, rules);
  if (description) out.description = description;
  return out;
}

function fixObject(schema: Json, target: Function | undefined, defaults: Record<string, unknown> = {}): Json {
  const rules = constraintsOf(target);
  const properties: Json = {};
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    properties[name] = fixSchema(property, rules.get(name));
    if (defaults[name] !== undefined) properties[name].default = defaults[name];
    if (EXAMPLES[name] !== undefined && properties[name].pattern) properties[name].example = EXAMPLES[name];
  }
  // A non-null argument with a default may be left out.
  const required = (schema.required ?? []).filter((name: string) => defaults[name] === undefined);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function inputTypeSchema(type: GraphQLInputType): Json {
  if (isNonNullType(type)) return inputTypeSchema(type.ofType);
  if (isListType(type)) return { type: 'array', items: inputTypeSchema(type.ofType) };
  if (type === GraphQLInt) return { type: 'integer', format: 'int32' };
  if (type === GraphQLFloat) return { type: 'number', format: 'float' };
  if (type === GraphQLString || type === GraphQLID) return { type: 'string' };
  if (type === GraphQLBoolean) return { type: 'boolean' };
  if (SCALARS[type.name]) return { $ref: `#/components/schemas/${type.name}` };
  return { $ref: `#/components/schemas/${type.name}` };
}

/** An input object described from the GraphQL schema (Sofa flattens nested lists to `{ type: object }`). */
function inputObjectSchema(type: GraphQLInputObjectType): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const field of Object.values(type.getFields())) {
    properties[field.name] = { ...inputTypeSchema(field.type), ...(field.description ? { description: field.description } : {}) };
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** Every `#/components/schemas/X` reachable from `value`. */
function collectRefs(value: unknown, found: Set<string>, components: Json): void {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, found, components));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const name = v.slice('#/components/schemas/'.length);
        if (!found.has(name)) {
          found.add(name);
          collectRefs(components[name], found, components);
        }
      } else collectRefs(v, found, components);
    }
  }
}

function envelope(data: Json): Json {
  return { type: 'object', required: ['ok', 'data'], properties: { ok: { type: 'boolean', enum: [true] }, data } };
}

const RATE_HEADERS: Json = {
  'x-ratelimit-limit': { description: 'Requests allowed per window for this key.', schema: { type: 'integer' } },
  'x-ratelimit-remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'x-ratelimit-reset': { description: 'Unix time (seconds) when the window resets.', schema: { type: 'integer' } },
  'API-Version': { description: 'Always v1.', schema: { type: 'string', enum: ['v1'] } },
};

/**
 * The Public API's OpenAPI 3.0 document, generated from Sofa's description of the same route table and
 * schema, then made faithful: bodies only in the request body (Sofa repeats them as query parameters),
 * scalars described, the class-validator ranges of each field, defaults, the success envelope, the
 * 400/401/429/500 answers, the bearer scheme, and only the schemas the routes use.
 */
export function buildPublicOpenApi(
  sofaDocument: Json,
  schema: GraphQLSchema,
  routes: RouteTable,
  basePath: string,
): { document: Json; yaml: string } {
  const sofa = clone(sofaDocument);
  const meta = sources();
  const sofaComponents: Json = sofa.components?.schemas ?? {};
  const paths: Json = {};

  for (const [operation, route] of Object.entries(routes)) {
    const [typeName, field] = operation.split('.') as [string, string];
    const oasPath = route.path.replace(/:([^/]+)/g, '{$1}');
    const method = route.method.toLowerCase();
    const source: Json | undefined = sofa.paths?.[oasPath]?.[method];
    if (!source) throw new Error(`Sofa described no ${route.method} ${route.path}`);
    const rootType = typeName === 'Mutation' ? schema.getMutationType() : schema.getQueryType();
    const gqlField = rootType?.getFields()[field];
    const argsClass = meta.argsOf(field);
    const defaults = Object.fromEntries((gqlField?.args ?? []).filter((a) => a.defaultValue !== undefined).map((a) => [a.name, a.defaultValue]));
    const rules = constraintsOf(argsClass);
    const hasBody = ['post', 'put', 'patch'].includes(method);

    const parameters = (source.parameters ?? [])
      // Sofa lists body variables as query parameters too: a body route keeps only its path parameters.
      .filter((p: Json) => p.in === 'path' || (!hasBody && p.in === 'query'))
      .map((p: Json) => {
        const { description, ...param } = p;
        const fixed = fixSchema(p.schema, rules.get(p.name));
        if (defaults[p.name] !== undefined) fixed.default = defaults[p.name];
        const summary = fixed.description ?? description;
        delete fixed.description;
        return { ...param, schema: fixed, ...(summary ? { description: summary } : {}) };
      });

    const out: Json = {
      operationId: field,
      summary: ROUTE_SUMMARIES[field] ?? field,
      description: gqlField?.description ?? '',
      tags: ['Public API'],
      security: [{ apiKey: [] }],
      ...(parameters.length ? { parameters } : {}),
    };
    if (hasBody) {
      const body = source.requestBody?.content?.['application/json']?.schema ?? { type: 'object', properties: {} };
      out.requestBody = { required: true, content: { 'application/json': { schema: fixObject(body, argsClass, defaults) } } };
    }
    const success = source.responses?.[String(route.responseStatus ?? 200)]?.content?.['application/json']?.schema;
    out.responses = {
      [String(route.responseStatus ?? 200)]: {
        description: 'Success: `{ ok: true, data }`.',
        headers: RATE_HEADERS,
        content: { 'application/json': { schema: envelope(fixSchema(success)) } },
      },
      ...(hasBody || parameters.length ? ERROR_RESPONSES : Object.fromEntries(Object.entries(ERROR_RESPONSES).filter(([k]) => k !== '400'))),
    };
    (paths[oasPath] ??= {})[method] = out;
  }

  // Input objects get their rules too; then keep only the schemas the routes reach.
  const schemas: Json = {};
  for (const [name, component] of Object.entries<Json>(sofaComponents)) {
    if (SCALARS[name]) continue;
    const gqlType = schema.getType(name);
    if (isInputObjectType(gqlType)) schemas[name] = fixObject(inputObjectSchema(gqlType), meta.inputClass(name));
    else if (isEnumType(gqlType)) schemas[name] = { type: 'string', enum: gqlType.getValues().map((v) => v.name), ...(gqlType.description ? { description: gqlType.description } : {}) };
    else schemas[name] = fixObjectShallow(component);
  }
  const used = new Set<string>();
  collectRefs(paths, used, schemas);
  const kept: Json = {};
  for (const name of [...used].sort()) if (schemas[name]) kept[name] = schemas[name];
  kept.ErrorEnvelope = {
    type: 'object',
    required: ['ok', 'error'],
    properties: {
      ok: { type: 'boolean', enum: [false] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: ['VALIDATION_ERROR', 'UNAUTHORIZED', 'NOT_FOUND', 'METHOD_NOT_ALLOWED', 'PAYLOAD_TOO_LARGE', 'INTERNAL_ERROR'] },
          message: { type: 'string' },
          details: { type: 'object', additionalProperties: true },
        },
      },
    },
  };
  kept.ValidationErrorEnvelope = {
    allOf: [
      { $ref: '#/components/schemas/ErrorEnvelope' },
      {
        type: 'object',
        properties: {
          error: {
            type: 'object',
            properties: {
              code: { type: 'string', enum: ['VALIDATION_ERROR'] },
              details: {
                type: 'object',
                required: ['errors'],
                properties: {
                  errors: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['path', 'message'],
                      properties: {
                        path: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
                        message: { type: 'string' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ],
  };
  kept.RateLimitExceeded = {
    type: 'object',
    required: ['statusCode', 'error', 'message', 'retryAfter'],
    properties: {
      statusCode: { type: 'integer', enum: [429] },
      error: { type: 'string', enum: ['RATE_LIMIT_EXCEEDED'] },
      message: { type: 'string', description: 'Names the maximum and the window in seconds.' },
      retryAfter: { type: 'integer', description: 'Seconds until the window resets.' },
    },
  };

  const document: Json = {
    openapi: '3.0.3',
    info: {
      title: 'Life Planner Public API',
      version: 'v1',
      description: [
        'Write-only API for scripts and devices (plus one exercise lookup). Every request carries',
        '`Authorization: Bearer <API key>` (create keys in Settings → Developer → API Keys; a plan with API',
        'keys is needed) and `Content-Type: application/json`. Data is attached to the key owner\'s today, in',
        'their time zone; `dayId` is never sent. Answers are `{ ok: true, data }`; errors are',
        '`{ ok: false, error: { code, message, details? } }`. Each key may make a limited number of requests',
        'per window (see the `x-ratelimit-*` headers).',
      ].join(' '),
    },
    servers: [{ url: basePath }],
    tags: [{ name: 'Public API' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'svc_ followed by 43 base64url characters' } },
      responses: {
        ValidationError: {
          description: 'VALIDATION_ERROR: the input failed validation; `details.errors` lists `{ path, message }` per field.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationErrorEnvelope' } } },
        },
        Unauthorized: {
          description: 'UNAUTHORIZED: the API key is missing, malformed, unknown, revoked or expired, or its owner\'s plan has lapsed.',
          headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
        RateLimited: {
          description: 'RATE_LIMIT_EXCEEDED: too many requests for this key in the window.',
          headers: { ...RATE_HEADERS, 'retry-after': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/RateLimitExceeded' } } },
        },
        InternalError: {
          description: 'INTERNAL_ERROR',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
      },
      schemas: kept,
    },
  };
  return { document, yaml: stringify(document, { aliasDuplicateObjects: false }) };
}

/** Output objects: fix $ref siblings and scalars only. */
function fixObjectShallow(component: Json): Json {
  if (component.type !== 'object' || !component.properties) return component;
  const properties: Json = {};
  for (const [name, property] of Object.entries<Json>(component.properties)) properties[name] = fixSchema(property);
  return { ...component, properties };
}
