import {
  coerceInputValue,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLArgument,
  type GraphQLInputType,
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
 * Path and query values arrive as text; read them the way Sofa does (numbers, booleans, JSON for input
 * objects) before the strict check. Body values are JSON and are checked as they are.
 */
function fromText(value: unknown, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return fromText(value, type.ofType);
  if (isListType(type)) return (Array.isArray(value) ? value : [value]).map((v) => fromText(v, type.ofType));
  if (typeof value === 'string') {
    if (type === GraphQLInt || type === GraphQLFloat) return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim()) ? Number(value) : value;
    if (type === GraphQLBoolean) return value === 'true' ? true : value === 'false' ? false : value;
    if (isInputObjectType(type)) {
      try {
        return fromText(JSON.parse(value), type);
      } catch {
        return value;
      }
    }
    return value;
  }
  if (isInputObjectType(type) && value && typeof value === 'object' && !Array.isArray(value)) {
    const fields = type.getFields();
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, Object.hasOwn(fields, key) ? fromText(v, fields[key]!.type) : v]),
    );
  }
  return value;
}

/**
 * Checks a REST request's values against the operation's arguments with GraphQL's own input coercion,
 * before Sofa reads them (Sofa's lenient parse turns 5 into "5" and names no field when it fails), so
 * every refusal names its field: `[{ path: ['email'], message }]`.
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
    coerceInputValue(textual ? fromText(value, type) : value, type, (path, _invalid, error) => {
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
