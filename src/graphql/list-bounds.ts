import { getNullableType, isInterfaceType, isListType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';

/** Bounds keyed by `Type.field`: the most items each unpaged list field can answer. */
export type ListBounds = Readonly<Record<string, number>>;

/** The field extension holding a list's bound (read by the cost estimate and the schema test). */
export const MAX_ITEMS_EXTENSION = 'maxItems';

/** A page's `items`: its size is the `limit` of the field answering the page. */
export function isPageItems(field: GraphQLField<unknown, unknown>, parentFields: Record<string, unknown>): boolean {
  return field.name === 'items' && 'meta' in parentFields;
}

/** Takes a page size: `limit` bounds it. */
export function isPaged(field: GraphQLField<unknown, unknown>): boolean {
  return field.args.some((arg) => arg.name === 'limit');
}

export function listBound(field: GraphQLField<unknown, unknown>): number | undefined {
  const bound = field.extensions?.[MAX_ITEMS_EXTENSION];
  return typeof bound === 'number' ? bound : undefined;
}

/** Every output list field of the schema, as `Type.field` with the field and its parent's fields. */
export function listFields(schema: GraphQLSchema): { key: string; field: GraphQLField<unknown, unknown>; parentFields: Record<string, unknown> }[] {
  const found = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
    const fields = type.getFields();
    for (const field of Object.values(fields)) {
      if (isListType(getNullableType(field.type))) found.push({ key: `${type.name}.${field.name}`, field, parentFields: fields });
    }
  }
  return found;
}

/**
 * Writes each bound into its field's extensions (in place: the schema's own field objects). A key
 * naming no list field is a mistake in the map and fails the build, so the map stays true.
 */
export function applyListBounds(schema: GraphQLSchema, bounds: ListBounds): GraphQLSchema {
  const byKey = new Map(listFields(schema).map((entry) => [entry.key, entry.field]));
  for (const [key, bound] of Object.entries(bounds)) {
    const field = byKey.get(key);
    if (!field) throw new Error(`list bound for ${key}, which is no list field of the schema`);
    if (!Number.isInteger(bound) || bound < 1) throw new Error(`list bound of ${key} must be a positive integer`);
    (field as { extensions: Record<string, unknown> }).extensions = { ...field.extensions, [MAX_ITEMS_EXTENSION]: bound };
  }
  return schema;
}
