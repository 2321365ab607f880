import {
  coerceInputValue,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLScalarType,
} from 'graphql';
import type { FieldError } from '../src/core/errors.js';
import { printPath } from '../src/graphql/error-body.js';

/** Where a REST request carries an operation argument, in Sofa's order: path, then query, then body. */
export interface ArgumentSources {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

const MAX_MESSAGE = 200;

function clip(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/**
 * Path and query values arrive as text; each is read as its declared type (a number for Int and Float,
 * `true`/`false` for Boolean, JSON for an input object, a single value as a one-item list) before the
 * strict check, and text that does not read as its type stays text, so it is refused naming the field
 * (`page=abc`). Body values are JSON and are checked as they are.
 */
function fromText(value: unknown, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return fromText(value, type.ofType);
  if (isListType(type)) return (Array.isArray(value) ? value : [value]).map((v) => fromText(v, type.ofType));
  if (typeof value !== 'string') return value;
  if (type === GraphQLInt || type === GraphQLFloat) return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim()) ? Number(value) : value;
  if (type === GraphQLBoolean) return value === 'true' ? true : value === 'false' ? false : value;
  if (isInputObjectType(type)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

type JsonKind = 'string' | 'number' | 'boolean' | 'array' | 'object';

function jsonKind(value: unknown): JsonKind | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const kind = typeof value;
  return kind === 'string' || kind === 'number' || kind === 'boolean' ? kind : 'object';
}

/**
 * The JSON type a scalar takes: the built-in ones by the spec, others by the JSON Schema type they
 * declare in `extensions.jsonSchema` (graphql-scalars' scalars and LocalDate do); a scalar that declares
 * none (JSON) takes any value and its own parsing decides.
 */
function scalarKind(type: GraphQLScalarType): { kind: JsonKind; integer?: boolean } | undefined {
  if (type === GraphQLString || type === GraphQLID) return { kind: 'string' };
  if (type === GraphQLInt) return { kind: 'number', integer: true };
  if (type === GraphQLFloat) return { kind: 'number' };
  if (type === GraphQLBoolean) return { kind: 'boolean' };
  const declared = (type.extensions as { jsonSchema?: { type?: unknown } } | undefined)?.jsonSchema?.type;
  if (declared === 'integer') return { kind: 'number', integer: true };
  return typeof declared === 'string' && ['string', 'number', 'boolean', 'array', 'object'].includes(declared) ? { kind: declared as JsonKind } : undefined;
}

const ARTICLE: Record<JsonKind | 'null', string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

/**
 * REST takes JSON as typed: a value whose JSON type is not the declared one is refused where GraphQL's
 * input coercion would convert it (a single value into a list, a number into an ID, an array into an
 * input object). Checks lists, input objects and their fields, enums (strings) and scalars; values of
 * the right JSON type go on to GraphQL's coercion for the rest (ranges, formats, enum values).
 */
function checkJsonTypes(value: unknown, type: GraphQLInputType, path: (string | number)[], textual: boolean, errors: FieldError[]): void {
  if (value === null || value === undefined) return; // null on a non-null type: GraphQL's coercion names it
  if (isNonNullType(type)) return checkJsonTypes(value, type.ofType, path, textual, errors);
  const got = jsonKind(value);
  const refuse = (expected: string): void => {
    errors.push({ path, message: `${printPath(path)}: expected ${expected}${textual && got === 'string' ? '' : `, got ${ARTICLE[got]}`}` });
  };
  if (isListType(type)) {
    if (got !== 'array') return refuse(ARTICLE.array);
    (value as unknown[]).forEach((item, i) => checkJsonTypes(item, type.ofType, [...path, i], textual, errors));
    return;
  }
  if (isInputObjectType(type)) {
    if (got !== 'object') return refuse(ARTICLE.object);
    const fields = type.getFields();
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (Object.hasOwn(fields, key)) checkJsonTypes(v, fields[key]!.type, [...path, key], false, errors);
    }
    return;
  }
  if (isEnumType(type)) {
    if (got !== 'string') refuse(`one of ${type.getValues().map((v) => v.name).join(', ')}`);
    return;
  }
  const expected = scalarKind(type);
  if (!expected || got === expected.kind) return;
  refuse(expected.integer ? 'an integer' : ARTICLE[expected.kind]);
}

/**
 * Checks a REST request's values against the operation's arguments, before Sofa reads them (Sofa's
 * lenient parse turns 5 into "5" and names no field when it fails), so every refusal names its field:
 * `[{ path: ['email'], message }]`. First the JSON types, strictly (checkJsonTypes), then GraphQL's own
 * input coercion for what a type accepts.
 */
export function checkArguments(args: readonly GraphQLArgument[], sources: ArgumentSources): FieldError[] {
  const errors: FieldError[] = [];
  for (const arg of args) {
    const { name, type } = arg;
    let value: unknown;
    let textual = false;
    if (Object.hasOwn(sources.params, name)) {
      value = sources.params[name];
      textual = true;
    } else if (Object.hasOwn(sources.query, name) && sources.query[name] !== '' && sources.query[name] != null) {
      value = sources.query[name];
      textual = true;
    } else if (Object.hasOwn(sources.body, name)) {
      value = sources.body[name];
    }
    if (value === undefined || value === null) {
      // Sofa leaves a missing or null argument out; a default then applies.
      if (isNonNullType(type) && arg.defaultValue === undefined) errors.push({ path: [name], message: `${name} is required` });
      continue;
    }
    const typed = textual ? fromText(value, type) : value;
    const shapeErrors: FieldError[] = [];
    checkJsonTypes(typed, type, [name], textual, shapeErrors);
    if (shapeErrors.length) {
      errors.push(...shapeErrors);
      continue;
    }
    coerceInputValue(typed, type, (path, _invalid, error) => {
      // graphql-js reports a missing required field of an input object at the object's path: name the field.
      const missing = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/.exec(error.message)?.[1];
      const at = missing ? [name, ...path, missing] : [name, ...path];
      errors.push({ path: at, message: missing ? `${printPath(at)} is required` : clip(`${printPath(at)}: ${reason(error.message)}`) });
    });
  }
  return errors;
}

/** graphql-js's reason without the offending value echoed back ("String cannot represent …: <value>"). */
function reason(message: string): string {
  const scalar = /^(\w+) cannot represent/.exec(message)?.[1];
  return scalar ? `expected ${describeScalar(scalar)}` : message;
}

function describeScalar(name: string): string {
  switch (name) {
    case 'String':
    case 'ID':
      return 'a string';
    case 'Int':
      return 'an integer';
    case 'Float':
      return 'a number';
    case 'Boolean':
      return 'true or false';
    default:
      return `a valid ${name}`;
  }
}
