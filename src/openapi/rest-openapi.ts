import { getMetadataStorage as validationStorage } from 'class-validator';
import { getMetadataStorage as graphqlStorage } from 'type-graphql';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/**
 * OpenAPI 3.0 documents for the REST surfaces (Session API, Public API), generated from Sofa's
 * description of a route table and the GraphQL schema, then made faithful to what the surface answers.
 * Each surface brings its own title, security and error answers; the rest is shared here.
 */

export type Json = Record<string, any>;

/** The part of a route table entry the description needs (rest/route-table.ts). */
export interface DescribedRoute {
  method: string;
  path: string;
  responseStatus?: number;
}

/** What a route takes, for choosing its error answers. */
export interface RouteTraits {
  operation: string;
  field: string;
  method: string;
  path: string;
  hasPathParameters: boolean;
  hasQueryParameters: boolean;
  hasBody: boolean;
  /** An argument naming a record (`…Id`): a missing or foreign one answers 404. */
  referencesRecord: boolean;
}

export interface RestOpenApiOptions {
  sofaDocument: Json;
  schema: GraphQLSchema;
  routes: Record<string, DescribedRoute>;
  basePath: string;
  info: { title: string; version: string; description: string };
  tag: string;
  summaries?: Record<string, string>;
  securitySchemes: Json;
  /** Security requirement of one route (`[]` = none). */
  security(route: RouteTraits): Json[];
  /** `status → response` for one route's errors (usually `$ref`s to `responses`). */
  errors(route: RouteTraits): Json;
  /** Headers on every success answer. */
  successHeaders?: Json;
  /** Shared responses (`components.responses`). */
  responses: Json;
  /** Further schemas the responses refer to. */
  schemas?: Json;
  /** Operations served beside the route table (hand-written routes), `path → method → operation`. */
  extraPaths?: Json;
  /**
   * The fields a route's answer selects, where the surface runs a narrower selection than Sofa's default
   * (rest/answer-shape.ts): its success answer is described from exactly these fields.
   */
  selection?(operation: string): Selection | undefined;
}

/** Selected fields by name, nested for relations (`true` = a leaf field); as @graphql-tools/utils' `SelectedFields`. */
export interface Selection {
  [field: string]: boolean | Selection;
}

/** Scalars described inline (Sofa leaves custom scalars as references to components it never defines). */
const SCALARS: Record<string, Json> = {
  DateTimeISO: { type: 'string', format: 'date-time', example: '2026-11-22T07:30:00Z' },
  UUID: { type: 'string', format: 'uuid' },
  LocalDate: { type: 'string', format: 'date' },
  Money: { type: 'number', multipleOf: 0.01, example: -12.5, description: 'An exact amount with at most 2 decimals.' },
  JSON: { description: 'Any JSON value.' },
  JSONObject: { type: 'object', additionalProperties: true },
};

/** Examples for fields whose generated example would be meaningless (Swagger UI makes "_" from a pattern). */
const EXAMPLES: Record<string, unknown> = { splitLabel: 'Push', type: 'run' };

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
    const { maxItems } = rules;
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

/** Output objects: fix $ref siblings and scalars only. */
function fixObjectShallow(component: Json): Json {
  if (component.type !== 'object' || !component.properties) return component;
  const properties: Json = {};
  for (const [name, property] of Object.entries<Json>(component.properties)) properties[name] = fixSchema(property);
  return { ...component, properties };
}

function inputTypeSchema(type: GraphQLInputType): Json {
  if (isNonNullType(type)) return inputTypeSchema(type.ofType);
  if (isListType(type)) return { type: 'array', items: inputTypeSchema(type.ofType) };
  if (type === GraphQLInt) return { type: 'integer', format: 'int32' };
  if (type === GraphQLFloat) return { type: 'number', format: 'float' };
  if (type === GraphQLString || type === GraphQLID) return { type: 'string' };
  if (type === GraphQLBoolean) return { type: 'boolean' };
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

/**
 * The success envelope of a field: `{ ok: true, data }`, or for a page (`{ items, meta }` in GraphQL)
 * `{ ok: true, data: [items], meta }`, as rest/envelope.ts answers it.
 */
/** `{ ok: true, data }` around a schema. */
export function dataEnvelope(data: Json): Json {
  return { type: 'object', required: ['ok', 'data'], properties: { ok: { type: 'boolean', enum: [true] }, data } };
}

/**
 * An object type as a selection answers it: the selected leaf fields as its component describes them,
 * the selected relations inline with their own selection, `required` kept for the selected fields.
 */
function selectedObjectSchema(type: GraphQLObjectType, selection: Selection, components: Json, at: string): Json {
  const component: Json = components[type.name] ?? {};
  const fields = type.getFields();
  const properties: Json = {};
  for (const [name, nested] of Object.entries(selection)) {
    const field = fields[name];
    if (!field) throw new Error(`${at}: ${type.name} has no field ${name}`);
    if (typeof nested === 'boolean') properties[name] = fixSchema(component.properties?.[name] ?? {});
    else properties[name] = selectedRelationSchema(field.type, nested, components, `${at}.${name}`);
  }
  const required = (component.required ?? []).filter((name: string) => name in properties);
  return {
    type: 'object',
    ...(component.description ? { description: component.description } : {}),
    properties,
    ...(required.length ? { required } : {}),
  };
}

function selectedRelationSchema(type: GraphQLOutputType, selection: Selection, components: Json, at: string): Json {
  const bare = stripNonNull(type);
  if (isListType(bare)) return { type: 'array', items: selectedRelationSchema(bare.ofType, selection, components, at) };
  if (!isObjectType(bare)) throw new Error(`${at}: a selection under a field that is no object type`);
  return selectedObjectSchema(bare, selection, components, at);
}

function successSchema(field: GraphQLField<unknown, unknown> | undefined, sofaSchema: Json | undefined, shaped?: Json): Json {
  const base = dataEnvelope;
  const type = field ? (isNonNullType(field.type) ? field.type.ofType : field.type) : undefined;
  if (type && isObjectType(type)) {
    const fields = type.getFields();
    const names = Object.keys(fields).sort();
    if (names.join() === 'items,meta' && isListType(stripNonNull(fields.items!.type))) {
      const envelope = base({ type: 'array', items: { $ref: `#/components/schemas/${getNamedType(fields.items!.type).name}` } });
      envelope.required.push('meta');
      envelope.properties.meta = { $ref: `#/components/schemas/${getNamedType(fields.meta!.type).name}` };
      return envelope;
    }
  }
  let data = shaped ?? fixSchema(sofaSchema ?? {});
  if (type && !isNonNullType(field!.type)) data = data.$ref ? { allOf: [data], nullable: true } : { ...data, nullable: true };
  return base(data);
}

function stripNonNull(type: GraphQLOutputType): GraphQLOutputType {
  return isNonNullType(type) ? type.ofType : type;
}

/** The error envelopes every surface answers (rest/envelope.ts). */
export const ERROR_SCHEMAS: Json = {
  ErrorEnvelope: {
    type: 'object',
    required: ['ok', 'error'],
    properties: {
      ok: { type: 'boolean', enum: [false] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', description: 'A stable error code, e.g. VALIDATION_ERROR, UNAUTHORIZED, NOT_FOUND.' },
          message: { type: 'string' },
          details: { type: 'object', additionalProperties: true },
        },
      },
    },
  },
  ValidationErrorEnvelope: {
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
                  rule: { type: 'string', description: 'The business rule refused, when one was.' },
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
  },
};

/** A response answering the error envelope. */
export function errorResponse(description: string, extra: Json = {}, schema = 'ErrorEnvelope'): Json {
  return { description, ...extra, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } };
}

/**
 * The document, made faithful: bodies only in the request body (Sofa repeats them as query parameters),
 * path values only in the path (Sofa repeats them in the body), scalars described, the class-validator
 * ranges of each field, defaults, the success envelope, the surface's error answers and security, and
 * only the schemas the routes use.
 */
export function buildRestOpenApi(options: RestOpenApiOptions): { document: Json; yaml: () => Promise<string> } {
  const { schema, routes } = options;
  const sofa = clone(options.sofaDocument);
  const meta = sources();
  const sofaComponents: Json = sofa.components?.schemas ?? {};
  const paths: Json = {};
  /** Components of the shaped answers (`<Type>Answer_<field>`), one per route with a selection. */
  const answerSchemas: Json = {};

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
    const pathNames = [...route.path.matchAll(/:([^/]+)/g)].map((m) => m[1]!);

    // Sofa takes a variable for a path parameter when the path merely contains `:<name>` (`question` in
    // `/journal/questions/:questionId`): only the route's own names are path parameters, the others are
    // query parameters or body fields like the rest.
    const misplaced = (source.parameters ?? []).filter((p: Json) => p.in === 'path' && !pathNames.includes(p.name));
    const parameters = (source.parameters ?? [])
      .map((p: Json) => (misplaced.includes(p) ? { ...p, in: 'query', required: Boolean(p.required) } : p))
      // Sofa lists body variables as query parameters too: a body route keeps only its path parameters.
      .filter((p: Json) => p.in === 'path' || (!hasBody && p.in === 'query' && !pathNames.includes(p.name)))
      .map((p: Json) => {
        const { description, ...param } = p;
        const fixed = fixSchema(p.schema, rules.get(p.name));
        if (defaults[p.name] !== undefined) fixed.default = defaults[p.name];
        const summary = fixed.description ?? description;
        delete fixed.description;
        return { ...param, schema: fixed, ...(summary ? { description: summary } : {}) };
      });

    let requestBody: Json | undefined;
    if (hasBody) {
      const body: Json = clone(source.requestBody?.content?.['application/json']?.schema ?? { type: 'object', properties: {} });
      for (const p of misplaced) {
        (body.properties ??= {})[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
        if (p.required) (body.required ??= []).push(p.name);
      }
      // Path values are taken from the path: they are no body field.
      for (const name of pathNames) {
        delete body.properties?.[name];
        if (body.required) body.required = body.required.filter((r: string) => r !== name);
      }
      const fixed = fixObject(body, argsClass, defaults);
      if (Object.keys(fixed.properties).length) {
        requestBody = { required: Boolean(fixed.required?.length), content: { 'application/json': { schema: fixed } } };
      }
    }
    const traits: RouteTraits = {
      operation,
      field,
      method: route.method,
      path: route.path,
      hasPathParameters: pathNames.length > 0,
      hasQueryParameters: parameters.some((p: Json) => p.in === 'query'),
      hasBody: Boolean(requestBody),
      referencesRecord: (gqlField?.args ?? []).some((a) => /Id$/.test(a.name)),
    };

    const status = String(route.responseStatus ?? 200);
    const success = source.responses?.[status]?.content?.['application/json']?.schema;
    const selection = options.selection?.(operation);
    let shaped: Json | undefined;
    if (selection) {
      const returned = gqlField ? getNamedType(gqlField.type) : undefined;
      if (!returned || !isObjectType(returned)) throw new Error(`${operation}: a selection for an operation that returns no object type`);
      const name = `${returned.name}Answer_${field}`;
      answerSchemas[name] = selectedObjectSchema(returned, selection, sofaComponents, operation);
      shaped = { $ref: `#/components/schemas/${name}` };
    }
    (paths[oasPath] ??= {})[method] = {
      operationId: field,
      summary: options.summaries?.[field] ?? field,
      description: gqlField?.description ?? '',
      tags: [options.tag],
      security: options.security(traits),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [status]: {
          description: 'Success: `{ ok: true, data }`.',
          ...(options.successHeaders ? { headers: options.successHeaders } : {}),
          content: { 'application/json': { schema: successSchema(gqlField, success, shaped) } },
        },
        ...options.errors(traits),
      },
    };
  }

  for (const [path, operations] of Object.entries<Json>(options.extraPaths ?? {})) {
    for (const [method, op] of Object.entries<Json>(operations)) {
      if (paths[path]?.[method]) throw new Error(`${method.toUpperCase()} ${path} is in the route table already`);
      (paths[path] ??= {})[method] = { tags: [options.tag], ...op };
    }
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
  Object.assign(schemas, answerSchemas);
  const used = new Set<string>();
  collectRefs(paths, used, schemas);
  const kept: Json = {};
  for (const name of [...used].sort()) if (schemas[name]) kept[name] = schemas[name];
  Object.assign(kept, ERROR_SCHEMAS, options.schemas ?? {});

  const document: Json = {
    openapi: '3.0.3',
    info: options.info,
    servers: [{ url: options.basePath }],
    tags: [{ name: options.tag }],
    paths,
    components: { securitySchemes: options.securitySchemes, responses: options.responses, schemas: kept },
  };
  // The yaml package is loaded when the YAML is first asked for, not at start-up (issue 18).
  return { document, yaml: async () => (await import('yaml')).stringify(document, { aliasDuplicateObjects: false }) };
}
