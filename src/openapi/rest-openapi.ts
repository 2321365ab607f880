import { getMetadataStorage as validationStorage } from 'class-validator';
import { getMetadataStorage as graphqlStorage } from 'type-graphql';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  Kind,
  getNamedType,
  isEnumType,
  isLeafType,
  isScalarType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type GraphQLEnumType,
  type GraphQLField,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { MONEY_MAX_DIGITS, MONEY_RULE } from '../core/money.js';

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
  /** A body field that is no argument is refused (rest/route-table.ts); otherwise it is left unread. */
  strictBody?: boolean;
  responseStatus?: number;
  /** A second success status, answered when the record already existed (a `generate` repeated). */
  existingStatus?: number;
  /** What the second status means, when it is not "it existed already". */
  existingStatusMeans?: string;
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
  /** Further headers on one route's success answer (by GraphQL field name). */
  routeSuccessHeaders?(field: string): Json | undefined;
  /** Shared responses (`components.responses`). */
  responses: Json;
  /** Further schemas the responses refer to. */
  schemas?: Json;
  /** Operations served beside the route table (hand-written routes), `path → method → operation`. */
  extraPaths?: Json;
  /**
   * The document each route runs, by operation (rest/sofa-operations.ts): its success answer is
   * described from exactly the fields it selects.
   */
  documents: Map<string, DocumentNode>;
}

const MONEY_MAX = Number(`${'9'.repeat(MONEY_MAX_DIGITS)}.99`);

/** Scalars described inline (Sofa leaves custom scalars as references to components it never defines). */
const SCALARS: Record<string, Json> = {
  DateTimeISO: { type: 'string', format: 'date-time', example: '2026-11-22T07:30:00Z' },
  UUID: { type: 'string', format: 'uuid' },
  LocalDate: { type: 'string', format: 'date' },
  // No `multipleOf: 0.01`: a standard validator divides in binary floating point and refuses -8.2
  // (issue 34, item 15). The amount stays a JSON number (the spec's wire format); the rule is written out.
  Money: {
    type: 'number',
    minimum: -MONEY_MAX,
    maximum: MONEY_MAX,
    example: -12.5,
    description: `An exact decimal amount: ${MONEY_RULE} (-8.2, 12.34; not 0.001). Held as an exact decimal, never as a float: 0.1 + 0.2 is 0.3.`,
  },
  JSON: { description: 'Any JSON value.' },
  JSONObject: { type: 'object', additionalProperties: true },
};

/** Examples for fields whose generated example would be meaningless (Swagger UI makes "_" from a pattern). */
const EXAMPLES: Record<string, unknown> = { splitLabel: 'Push', type: 'run' };

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** class-validator rules of a class → OpenAPI keywords per property. */
export function constraintsOf(target: Function | undefined): Map<string, Json> {
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
export function sources(): { argsOf(field: string): Function | undefined; inputClass(name: string): Function | undefined } {
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
  // A field's own words come first; a scalar's rule (Money's) stays beside them.
  if (description) out.description = scalar?.description ? `${description} ${scalar.description}` : description;
  return out;
}

/**
 * An input object or a body: rules and defaults added; a field whose GraphQL type may be null may be
 * sent as `null` (to clear it), so it is `nullable`.
 */
function fixObject(graphql: GraphQLSchema, schema: Json, target: Function | undefined, defaults: Record<string, unknown> = {}, nullableNames: Set<string> = new Set()): Json {
  const rules = constraintsOf(target);
  const properties: Json = {};
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    properties[name] = fixSchema(property, rules.get(name));
    if (nullableNames.has(name)) properties[name] = nullable(properties[name], graphql);
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
  return { $ref: `#/components/schemas/${type.name}` };
}

/** An input object described from the GraphQL schema (Sofa flattens nested lists to `{ type: object }`). */
function inputObjectSchema(graphql: GraphQLSchema, type: GraphQLInputObjectType, inputClass: Function | undefined): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const field of Object.values(type.getFields())) {
    properties[field.name] = { ...inputTypeSchema(field.type), ...(field.description ? { description: field.description } : {}) };
    if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
  }
  const mayBeNull = new Set(Object.values(type.getFields()).filter((f) => !isNonNullType(f.type)).map((f) => f.name));
  // GraphQL's input coercion refuses a field the input type does not define (400 naming it).
  return { ...fixObject(graphql, { properties, required }, inputClass, {}, mayBeNull), additionalProperties: false };
}

/**
 * An argument that names a record (`…Id`, `…Ids`, or a UUID such as a book's `coverUrl` file), itself or
 * in a field of its input object: a missing or foreign one answers 404.
 */
function namesRecord(name: string, type: GraphQLInputType, seen: Set<string> = new Set()): boolean {
  const named = getNamedType(type);
  if (/Ids?$/.test(name) || named.name === 'UUID') return true;
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((f) => namesRecord(f.name, f.type, seen));
}

/** Every `#/components/schemas/X` named in `value` (not following them). */
function collectRefs(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) found.add(v.slice('#/components/schemas/'.length));
      else collectRefs(v, found);
    }
  }
}

/**
 * OpenAPI 3 forbids two path templates that differ only in their parameters' names (`/weeks/{startDate}`,
 * `/weeks/{weekId}`): such paths become one template whose parameter names join theirs
 * (`/weeks/{startDateOrWeekId}`), each operation keeping its own parameter's schema and meaning.
 */
function mergeSameTemplates(paths: Json): void {
  const groups = new Map<string, string[]>();
  for (const template of Object.keys(paths)) {
    const shape = template.replace(/\{[^}]+\}/g, '{}');
    groups.set(shape, [...(groups.get(shape) ?? []), template]);
  }
  for (const templates of groups.values()) {
    if (templates.length < 2) continue;
    const namesOf = (template: string) => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const joined = namesOf(templates[0]!).map((_, i) => [...new Set(templates.map((t) => namesOf(t)[i]!))]);
    const mergedNames = joined.map((names) => names[0] + names.slice(1).map((n) => n[0]!.toUpperCase() + n.slice(1)).map((n) => `Or${n}`).join(''));
    let position = 0;
    const merged = templates[0]!.replace(/\{[^}]+\}/g, () => `{${mergedNames[position++]}}`);
    const item: Json = {};
    for (const template of templates) {
      const names = namesOf(template);
      for (const [method, operation] of Object.entries<Json>(paths[template])) {
        if (item[method]) throw new Error(`${method.toUpperCase()} ${template} and another route share ${merged}`);
        operation.parameters = (operation.parameters ?? []).map((p: Json) => {
          const at = p.in === 'path' ? names.indexOf(p.name) : -1;
          if (at < 0) return p;
          return { ...p, name: mergedNames[at], description: `The ${p.name}${p.description ? `: ${p.description}` : '.'}` };
        });
        item[method] = operation;
      }
      delete paths[template];
    }
    paths[merged] = item;
  }
}

/**
 * The success envelope of a field: `{ ok: true, data }`, or for a page (`{ items, meta }` in GraphQL)
 * `{ ok: true, data: [items], meta }`, as src/http/envelope.ts answers it.
 */
/** `{ ok: true, data }` around a schema. */
export function dataEnvelope(data: Json): Json {
  return { type: 'object', required: ['ok', 'data'], properties: { ok: { type: 'boolean', enum: [true] }, data } };
}

/**
 * `schema`, or null. A `$ref` takes no sibling in OpenAPI 3.0 and `nullable` needs a `type` beside it,
 * so a reference becomes `{ type, nullable, allOf: [$ref] }` with the type of what it names.
 */
export function nullable(schema: Json, graphql: GraphQLSchema): Json {
  const ref: string | undefined = schema.$ref ?? schema.allOf?.[0]?.$ref;
  if (ref) {
    const type = isEnumType(graphql.getType(ref.split('/').pop()!)) ? 'string' : 'object';
    return schema.$ref ? { type, nullable: true, allOf: [schema] } : { type, ...schema, nullable: true };
  }
  // A schema without a type (any JSON value) already allows null.
  return schema.type ? { ...schema, nullable: true } : schema;
}

const BUILTIN_SCALARS: Record<string, Json> = {
  Int: { type: 'integer', format: 'int32' },
  Float: { type: 'number' },
  String: { type: 'string' },
  Boolean: { type: 'boolean' },
  ID: { type: 'string' },
};

/**
 * The answers of the routes, described from the very documents the surface runs (rest/sofa-operations.ts):
 * each selected field is there (GraphQL answers every field it selects, `null` when it has no value), a
 * field whose GraphQL type may be null is `nullable`, and a relation has exactly the fields selected
 * under it. An object answered with its leaf fields only is the component of its type's name; another
 * selection is a component named after the relations it holds (`TaskWithCategory`).
 */
class AnswerSchemas {
  /** Components made on the way: output types with their leaf fields, and enums. */
  readonly components: Json = {};

  constructor(private readonly schema: GraphQLSchema) {}

  /** The `data` of a route: its root field as the route's document selects it; a page is `{ data: items, meta }`. */
  route(field: GraphQLField<unknown, unknown>, selection: SelectionSetNode | undefined, at: string): { data: Json; meta?: Json } {
    const type = stripNonNull(field.type);
    if (isObjectType(type) && isPage(type)) {
      const fields = type.getFields();
      const child = (name: string) => selection?.selections.find((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === name);
      const items = this.output(fields.items!.type, child('items')?.selectionSet, `${at}.items`);
      const meta = this.output(fields.meta!.type, child('meta')?.selectionSet, `${at}.meta`);
      return { data: items, meta };
    }
    if (isObjectType(type) && selection && !this.isLeafOnly(type, selection)) {
      const ref = { $ref: `#/components/schemas/${this.named(type, selection, this.object(type, selection, at))}` };
      return { data: isNonNullType(field.type) ? ref : nullable(ref, this.schema) };
    }
    return { data: this.output(field.type, selection, at) };
  }

  private output(type: GraphQLOutputType, selection: SelectionSetNode | undefined, at: string): Json {
    const inner = stripNonNull(type);
    let schema: Json;
    if (isListType(inner)) schema = { type: 'array', items: this.output(inner.ofType, selection, at) };
    else if (isScalarType(inner)) schema = { ...(BUILTIN_SCALARS[inner.name] ?? SCALARS[inner.name] ?? { description: `A ${inner.name} value.` }) };
    else if (isEnumType(inner)) schema = this.enumRef(inner);
    else if (isObjectType(inner)) {
      if (!selection) throw new Error(`${at}: the object type ${inner.name} is answered without a selection`);
      schema = this.isLeafOnly(inner, selection) ? this.leafComponent(inner) : { $ref: `#/components/schemas/${this.named(inner, selection, this.object(inner, selection, at))}` };
    } else throw new Error(`${at}: ${String(inner)} cannot be described (no union or interface is answered by REST)`);
    return isNonNullType(type) ? schema : nullable(schema, this.schema);
  }

  private object(type: GraphQLObjectType, selection: SelectionSetNode, at: string): Json {
    const fields = type.getFields();
    const properties: Json = {};
    for (const node of selection.selections) {
      if (node.kind !== Kind.FIELD) throw new Error(`${at}: only plain fields are described (found a ${node.kind})`);
      const field = fields[node.name.value];
      if (!field) throw new Error(`${at}: ${type.name} has no field ${node.name.value}`);
      properties[node.alias?.value ?? node.name.value] = this.withDescription(this.output(field.type, node.selectionSet, `${at}.${field.name}`), field.description);
    }
    return {
      type: 'object',
      ...(type.description ? { description: type.description } : {}),
      required: Object.keys(properties),
      properties,
    };
  }

  /**
   * The component of a route's answer with relations: `<Type>With<Relation>…` after the relations it
   * selects (`TaskWithCategory`), `<Type>Detail` past three; routes answering the same shape share it.
   * Without relations (some leaf fields only) it is `<Type>`, numbered when another selection took it.
   */
  private named(type: GraphQLObjectType, selection: SelectionSetNode, schema: Json): string {
    const fields = type.getFields();
    const relations = selection.selections
      .filter((s): s is FieldNode => s.kind === Kind.FIELD && !isLeafType(getNamedType(fields[s.name.value]!.type)))
      .map((s) => s.name.value[0]!.toUpperCase() + s.name.value.slice(1));
    // No relation: the type with the leaf fields its routes answer (rest/answer-shape.ts: answer fields).
    const base = !relations.length ? type.name : relations.length <= 3 ? `${type.name}With${relations.join('And')}` : `${type.name}Detail`;
    const same = JSON.stringify(schema);
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base}${n}`;
      if (!this.components[name]) {
        this.components[name] = schema;
        return name;
      }
      if (JSON.stringify(this.components[name]) === same) return name;
    }
  }

  /** The selection holds every leaf field of the type and nothing else. */
  private isLeafOnly(type: GraphQLObjectType, selection: SelectionSetNode): boolean {
    const selected = selection.selections.map((s) => (s.kind === Kind.FIELD && !s.alias ? s.name.value : '?'));
    const leaves = Object.values(type.getFields())
      .filter((f) => isLeafType(getNamedType(f.type)))
      .map((f) => f.name);
    return selected.length === leaves.length && leaves.every((name) => selected.includes(name));
  }

  /** `#/components/schemas/<Type>`: the type with its leaf fields (what a relation without a shape answers). */
  leafComponent(type: GraphQLObjectType): Json {
    if (!this.components[type.name]) {
      const leaves = Object.values(type.getFields()).filter((f) => isLeafType(getNamedType(f.type)));
      const selection: SelectionSetNode = { kind: Kind.SELECTION_SET, selections: leaves.map((f) => ({ kind: Kind.FIELD, name: { kind: Kind.NAME, value: f.name } })) };
      this.components[type.name] = {}; // taken before its fields are made
      this.components[type.name] = this.object(type, selection, type.name);
    }
    return { $ref: `#/components/schemas/${type.name}` };
  }

  private enumRef(type: GraphQLEnumType): Json {
    this.components[type.name] ??= { type: 'string', enum: type.getValues().map((v) => v.name), ...(type.description ? { description: type.description } : {}) };
    return { $ref: `#/components/schemas/${type.name}` };
  }

  private withDescription(schema: Json, description: string | null | undefined): Json {
    if (!description) return schema;
    // A bare $ref takes no siblings in OpenAPI 3.0; a scalar's rule (Money's) stays beside the field's words.
    if (schema.$ref) return { allOf: [schema], description };
    const rule = Object.values(SCALARS).some((scalar) => scalar.description && scalar.description === schema.description);
    return { ...schema, description: rule ? `${description} ${schema.description}` : description };
  }

  /** The object type by name, described with its leaf fields (for hand-written routes). */
  leafComponentOf(name: string): Json {
    const type = this.schema.getType(name);
    if (!isObjectType(type)) throw new Error(`${name} is no object type`);
    return this.leafComponent(type);
  }
}

function isPage(type: GraphQLObjectType): boolean {
  const fields = type.getFields();
  return Object.keys(fields).sort().join() === 'items,meta' && isListType(stripNonNull(fields.items!.type));
}

function stripNonNull(type: GraphQLOutputType): GraphQLOutputType {
  return isNonNullType(type) ? type.ofType : type;
}

/** The root field a route's document selects (its only top-level selection). */
function rootSelection(document: DocumentNode | undefined): SelectionSetNode | undefined {
  const operation = document?.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const root = operation?.selectionSet.selections[0];
  return root?.kind === Kind.FIELD ? root.selectionSet : undefined;
}

/** The error envelopes every surface answers (src/http/envelope.ts). */
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

/** The `Idempotency-Key` header every write route takes (rest/idempotent-requests.ts, docs/idempotency.md). */
const IDEMPOTENCY_KEY_PARAMETER: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retried write safe: a repeat with the same key and the same request (method, path, JSON body) within 24 h answers ' +
    "the first request's answer (status, body; header `Idempotent-Replayed: true`) without writing again; the key with another " +
    'request answers 422 IDEMPOTENCY_KEY_REUSED; a repeat while the first still runs answers 409 IDEMPOTENCY_KEY_IN_PROGRESS. ' +
    'Keys are per person. Answers of a request refused before it ran (400, 401, 403, 413, 415) and 5xx answers are not kept. See docs/idempotency.md.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$', example: '6f1c0b9e-2f3a-4c56-9d1e-7a8b9c0d1e2f' },
};

const IDEMPOTENCY_RESPONSES: Json = {
  IdempotencyKeyInProgress: errorResponse(
    'IDEMPOTENCY_KEY_IN_PROGRESS: the first request with this `Idempotency-Key` is still running: retry in a moment. IDEMPOTENCY_ANSWER_NOT_STORED: the first request ran but its answer was over 64 KiB and was not kept (`details.status` is its status): read the record instead.',
  ),
  IdempotencyKeyReused: errorResponse('IDEMPOTENCY_KEY_REUSED: this `Idempotency-Key` was sent with another request (method, path or body) in the last 24 h; nothing was written.'),
};

/** A response answering the error envelope. */
export function errorResponse(description: string, extra: Json = {}, schema = 'ErrorEnvelope'): Json {
  return { description, ...extra, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } };
}

const ETAG_HEADER: Json = { description: 'The record\'s version as a strong tag, `"<version>"`: send it back as `If-Match` (docs/concurrency.md).', schema: { type: 'string' } };

const IF_MATCH_PARAMETER: Json = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'The ETag last read (`"<version>"`; `W/"<version>"` is taken too, `*` checks nothing): the write is refused with 412 if the record changed since. Without it the write happens as it always did. Same as the `expectedVersion` field.',
  schema: { type: 'string' },
};

const VERSION_CONFLICT_RESPONSE: Json = errorResponse(
  'VERSION_CONFLICT: the record changed since the version sent (If-Match or `expectedVersion`); nothing was written. `details.current` holds the current record (its stored fields), `details.version` its version; the `ETag` header is the current one.',
  { headers: { ETag: ETAG_HEADER } },
);

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
  const paths: Json = {};
  const answers = new AnswerSchemas(schema);

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
    // A DELETE's arguments beyond its path come in a JSON body too (`DELETE /tasks/:taskId { applyTo }`):
    // a mutation never reads the query string (rest/sofa-surface.ts).
    const hasBody = ['post', 'put', 'patch', 'delete'].includes(method);
    const pathNames = [...route.path.matchAll(/:([^/]+)/g)].map((m) => m[1]!);

    // Sofa takes a variable for a path parameter when the path merely contains `:<name>` (`question` in
    // `/journal/questions/:questionId`): only the route's own names are path parameters, the others are
    // query parameters or body fields like the rest.
    // Sofa describes a DELETE's other arguments as query parameters: they are body fields here.
    const misplaced = (source.parameters ?? []).filter((p: Json) => (p.in === 'path' && !pathNames.includes(p.name)) || (method === 'delete' && p.in === 'query'));
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
        // A parameter with a default may be left out, whatever its GraphQL type.
        const required = p.in === 'path' || (Boolean(p.required) && defaults[p.name] === undefined);
        return { ...param, required, schema: fixed, ...(summary ? { description: summary } : {}) };
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
      const mayBeNull = new Set((gqlField?.args ?? []).filter((a) => !isNonNullType(a.type)).map((a) => a.name));
      const fixed = fixObject(schema, body, argsClass, defaults, mayBeNull);
      // Said either way, so a generated client knows: refused (400 naming it) on a strictBody route,
      // otherwise a top-level field that is no argument is left unread.
      if (route.strictBody) fixed.additionalProperties = false;
      else {
        fixed.additionalProperties = true;
        fixed.description = 'Fields other than these are ignored; inside an object field, an unknown field is refused (400 naming it).';
      }
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
      referencesRecord: (gqlField?.args ?? []).some((a) => namesRecord(a.name, a.type)),
    };

    if (!gqlField) throw new Error(`${operation} is not in the schema`);
    const { data, meta: pageMeta } = answers.route(gqlField, rootSelection(options.documents.get(operation)), operation);
    const envelope = dataEnvelope(data);
    if (pageMeta) {
      envelope.required.push('meta');
      envelope.properties.meta = pageMeta;
    }
    // Lost-update protection (docs/concurrency.md): a write taking `expectedVersion` takes If-Match and may
    // answer 412; an answer that is one versioned record carries its ETag.
    const versionedWrite = (gqlField.args ?? []).some((a) => a.name === 'expectedVersion');
    const answered = getNamedType(gqlField.type);
    const answersVersion = !isListType(isNonNullType(gqlField.type) ? gqlField.type.ofType : gqlField.type) && isObjectType(answered) && Boolean(answered.getFields().version);
    if (versionedWrite) parameters.push(IF_MATCH_PARAMETER);
    const headers = { ...options.successHeaders, ...options.routeSuccessHeaders?.(field), ...(answersVersion ? { ETag: ETAG_HEADER } : {}) };
    const success: Json = {
      description: 'Success: `{ ok: true, data }`.',
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { 'application/json': { schema: envelope } },
    };
    const status = String(route.responseStatus ?? 200);
    const errors = options.errors(traits);
    const write = typeName === 'Mutation';
    if (write) {
      parameters.push(IDEMPOTENCY_KEY_PARAMETER);
      // A route's own 409 or 422 keeps its description; the header's says what the key adds.
      errors['400'] ??= { $ref: '#/components/responses/ValidationError' };
      errors['409'] ??= { $ref: '#/components/responses/IdempotencyKeyInProgress' };
      errors['422'] ??= { $ref: '#/components/responses/IdempotencyKeyReused' };
    }
    if (versionedWrite) errors['412'] = VERSION_CONFLICT_RESPONSE;
    (paths[oasPath] ??= {})[method] = {
      operationId: field,
      summary: options.summaries?.[field] ?? field,
      description: gqlField.description ?? '',
      tags: [options.tag],
      security: options.security(traits),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [status]: success,
        ...(route.existingStatus ? { [String(route.existingStatus)]: { ...success, description: route.existingStatusMeans ?? 'Success: it existed already and is answered as it is, `{ ok: true, data }`.' } } : {}),
        // In status order, the write's additions among the route's own.
        ...Object.fromEntries(Object.entries(errors).sort(([a], [b]) => a.localeCompare(b))),
      },
    };
  }

  for (const [path, operations] of Object.entries<Json>(options.extraPaths ?? {})) {
    for (const [method, op] of Object.entries<Json>(operations)) {
      if (paths[path]?.[method]) throw new Error(`${method.toUpperCase()} ${path} is in the route table already`);
      (paths[path] ??= {})[method] = { tags: [options.tag], ...op };
    }
  }

  mergeSameTemplates(paths);

  // Input objects and enums from the GraphQL schema (with their rules), the answers' own components,
  // and object types a hand-written route names with their leaf fields; only the schemas in use are kept.
  const schemas: Json = {};
  const describe = (name: string): Json | undefined => {
    if (answers.components[name]) return answers.components[name];
    const gqlType = schema.getType(name);
    if (isInputObjectType(gqlType)) return inputObjectSchema(schema, gqlType, meta.inputClass(name));
    if (isEnumType(gqlType)) return { type: 'string', enum: gqlType.getValues().map((v) => v.name), ...(gqlType.description ? { description: gqlType.description } : {}) };
    if (isObjectType(gqlType)) {
      answers.leafComponentOf(name);
      return answers.components[name];
    }
    return options.schemas?.[name] ?? ERROR_SCHEMAS[name];
  };
  const used = new Set<string>();
  const responses: Json = { ...options.responses, ...IDEMPOTENCY_RESPONSES };
  const pending = [paths, responses];
  while (pending.length) {
    const found = new Set<string>();
    collectRefs(pending.pop(), found);
    for (const name of found) {
      if (used.has(name)) continue;
      used.add(name);
      const described = describe(name);
      if (!described) throw new Error(`#/components/schemas/${name} is referred to but described nowhere`);
      schemas[name] = described;
      pending.push(described);
    }
  }
  const kept: Json = {};
  for (const name of [...used].sort()) kept[name] = schemas[name];

  const document: Json = {
    openapi: '3.0.3',
    info: options.info,
    servers: [{ url: options.basePath }],
    tags: [{ name: options.tag }],
    paths,
    components: { securitySchemes: options.securitySchemes, responses, schemas: kept },
  };
  // The yaml package is loaded when the YAML is first asked for, not at start-up (issue 18).
  return { document, yaml: async () => (await import('yaml')).stringify(document, { aliasDuplicateObjects: false }) };
}
