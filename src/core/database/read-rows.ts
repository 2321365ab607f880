import { ReferenceKind, type EntityClass, type EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/*
 * Read-only rows for hot read paths (the week and day reads, through the dataloaders).
 *
 * Why: `em.find` costs about 1 ms of CPU per call before the database answers plus hydration of every
 * row into a managed entity (identity map, change-set snapshots), and a week read runs one such call per
 * Day relation. These reads only feed GraphQL output, so they run one plain SQL statement through the
 * ORM's own connection (same pool, same transaction if one is open, visible to the ORM's query logging)
 * and return plain objects of the entity's shape: the entity's property names, `date` columns as
 * 'YYYY-MM-DD' strings and timestamptz columns as Date, exactly as the hydrated entity holds them.
 * They are not managed: never change them and flush; services keep using the entity manager.
 */

/** How one entity's table is read into plain objects; made once per entity from the ORM metadata. */
export interface RowShape<T> {
  table: string;
  /** `alias."column" as "property", …` for every stored property. */
  columns(alias: string): string;
  /** Column of a property (for WHERE / ORDER BY). */
  column(property: keyof T & string): string;
  /** Turns a raw row (aliased as above) into the entity's shape. */
  toEntity(row: Record<string, unknown>): T;
}

const shapes = new WeakMap<object, RowShape<unknown>>();

function isStored(prop: EntityProperty): boolean {
  if (prop.persist === false || prop.formula || prop.embedded) return false;
  if (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE) return true;
  return prop.kind === ReferenceKind.ONE_TO_ONE && !!prop.owner;
}

function isTimestamp(prop: EntityProperty): boolean {
  const columnType = prop.columnTypes?.[0]?.toLowerCase() ?? '';
  return columnType.startsWith('timestamp') || prop.runtimeType === 'Date';
}

/** The read shape of an entity (cached per entity class). */
export function rowShape<T extends object>(em: EntityManager, entity: EntityClass<T>): RowShape<T> {
  const cached = shapes.get(entity);
  if (cached) return cached as RowShape<T>;
  const meta = em.getMetadata().get<T>(entity.name);
  const platform = em.getPlatform();
  const stored = meta.props.filter(isStored);
  const columnOf = new Map(stored.map((p) => [p.name as string, p.fieldNames[0]!]));
  const timestamps = stored.filter(isTimestamp).map((p) => p.name as string);
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const shape: RowShape<T> = {
    table: quote(meta.tableName),
    columns: (alias) => stored.map((p) => `${alias}.${quote(p.fieldNames[0]!)} as ${quote(p.name as string)}`).join(', '),
    column(property) {
      const column = columnOf.get(property);
      if (!column) throw new Error(`${meta.className}.${property} is not a stored column`);
      return quote(column);
    },
    toEntity(row) {
      // The ORM's connection returns timestamptz as text (its type parsers); convert like its hydrator.
      for (const name of timestamps) {
        const value = row[name];
        if (typeof value === 'string') row[name] = platform.parseDate(value);
      }
      return row as T;
    },
  };
  shapes.set(entity, shape as RowShape<unknown>);
  return shape;
}

/** Runs one SQL statement (`?` placeholders) on the ORM's connection, inside the open transaction if any. */
export async function queryRows(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<Record<string, unknown>[]> {
  return em.getConnection().execute<Record<string, unknown>[]>(sql, [...params], 'all', em.getTransactionContext());
}

/** `?, ?, …` for a list of values. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

export interface ReadRowsOptions<T> {
  /** Rows whose `property` is one of `values`. */
  where: keyof T & string;
  values: readonly unknown[];
  orderBy?: readonly (keyof T & string)[];
}

/** Plain rows of one entity whose `where` property is in `values`, ordered ascending by `orderBy`. */
export async function readRows<T extends object>(em: EntityManager, entity: EntityClass<T>, options: ReadRowsOptions<T>): Promise<T[]> {
  if (options.values.length === 0) return [];
  const shape = rowShape(em, entity);
  const order = options.orderBy?.length ? ` order by ${options.orderBy.map((p) => `t.${shape.column(p)} asc`).join(', ')}` : '';
  const sql = `select ${shape.columns('t')} from ${shape.table} as t where t.${shape.column(options.where)} in (${placeholders(options.values)})${order}`;
  const rows = await queryRows(em, sql, options.values);
  return rows.map((row) => shape.toEntity(row));
}
