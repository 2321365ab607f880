import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import { ValidationError, type FieldError } from '../core/errors.js';
import { unstorableTextReason } from '../core/storable-text.js';

function findUnstorable(value: unknown, path: (string | number)[], found: FieldError[]): void {
  if (typeof value === 'string') {
    const reason = unstorableTextReason(value);
    if (reason) found.push({ path, message: `${path.join('.')} must not contain ${reason}` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findUnstorable(item, [...path, i], found));
  } else if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      // A free-form JSON object's keys are stored too.
      const reason = unstorableTextReason(key);
      if (reason) found.push({ path, message: `${path.join('.')} must not contain ${reason} in a key` });
      findUnstorable(item, [...path, key], found);
    }
  }
}

/**
 * PostgreSQL cannot store U+0000 in text, nor a lone UTF-16 surrogate in jsonb (the outbox): the driver
 * fails the whole statement. So the arguments of every root operation are checked once here instead of
 * in each module. Only root fields are wrapped: nested fields take no client text, and wrapping them
 * would tax every read.
 */
export function rejectNulText(schema: GraphQLSchema): GraphQLSchema {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const found: FieldError[] = [];
        findUnstorable(args, [], found);
        if (found.length) throw new ValidationError(found[0]!.message, found);
        return resolve(source, args, context, info);
      };
    }
  }
  return schema;
}
