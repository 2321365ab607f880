import { getMetadataStorage } from 'type-graphql';

/**
 * A stored record as its GraphQL type names it: the fields declared on its class (and the classes it
 * extends) that hold plain values. A conflict answers it as "the current record" on every surface;
 * fields computed by resolvers are left out (read the record for them).
 */
export function recordFields(record: object): Record<string, unknown> {
  const classes = new Set<unknown>();
  for (let proto = Object.getPrototypeOf(record); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) classes.add(proto.constructor);
  const fields: Record<string, unknown> = {};
  for (const field of getMetadataStorage().fields) {
    if (!classes.has(field.target) || field.name in fields) continue;
    const value = (record as Record<string, unknown>)[field.name];
    if (value === undefined || typeof value === 'function') continue;
    if (value instanceof Date) fields[field.name] = value.toISOString();
    else if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype) fields[field.name] = value;
  }
  return fields;
}
