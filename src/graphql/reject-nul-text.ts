import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { ValidationError, type FieldError } from '../core/errors.js';

function findNul(value: unknown, path: (string | number)[], found: FieldError[]): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ path, message: `${path.join('.')} must not contain the NUL character (U+0000)` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findNul(item, [...path, i], found));
  } else if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) findNul(item, [...path, key], found);
  }
}

/**
 * PostgreSQL cannot store U+0000 in text (the driver fails the whole statement), so the arguments of
 * every root operation are checked once here instead of in each module. Only root fields are wrapped:
 * nested fields take no client text, and wrapping them would tax every read.
 */
export function rejectNulText(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const found: FieldError[] = [];
        findNul(args, [], found);
        if (found.length) throw new ValidationError(found[0]!.message, found);
        return resolve(source, args, context, info);
      };
    }
  }
  return schema;
}
