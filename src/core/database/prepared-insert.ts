import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * INSERT text of append-only writes, built once per entity from the ORM's metadata (issue 36.4).
 *
 * Why: composing the INSERT through MikroORM's query builder and knex on every write was about a fifth
 * of a Public API water write's CPU, to produce the same text each time. The values are still the ORM's
 * own conversion of the entity (the comparator's `prepareEntity`, what `em.insert` sends), so the row is
 * the same; only the text is remembered, and it is sent as a prepared statement (parsed and planned once
 * per connection).
 */

/** One entity's INSERT: its columns' text and its values in that order. */
export interface InsertRow {
  /** `"table" ("a", "b", …)`: what follows `insert into`. */
  target: string;
  /** Placeholders counted from `first`: `($first, $first+1, …)`. */
  placeholders(first: number): string;
  values: unknown[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Column lists by entity and the set of properties its payload holds (fixed per writer: one or two per entity). */
const targets = new Map<string, string>();

/**
 * The INSERT of `entity` as `em.insert(entity)` would send it: the properties the ORM's payload holds,
 * each mapped to its column by the metadata. Undefined when a property maps to more than one column
 * (a composite key), which callers leave to the ORM.
 */
export function insertRow(em: EntityManager, entity: object): InsertRow | undefined {
  const meta = em.getMetadata().get(entity.constructor.name);
  const payload = em.getComparator().prepareEntity(entity) as Record<string, unknown>;
  const properties = Object.keys(payload);
  const key = `${meta.className}\u0000${properties.join(',')}`;
  let target = targets.get(key);
  if (target === undefined) {
    const columns: string[] = [];
    for (const name of properties) {
      const fieldNames = meta.properties[name as never]?.fieldNames;
      if (fieldNames?.length !== 1) return undefined;
      columns.push(quote(fieldNames[0]!));
    }
    target = `${quote(meta.tableName)} (${columns.join(', ')})`;
    targets.set(key, target);
  }
  const values = properties.map((name) => payload[name]);
  return {
    target,
    values,
    placeholders: (first) => `(${values.map((_, i) => `$${first + i}`).join(', ')})`,
  };
}
