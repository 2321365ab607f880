import { ReferenceKind, type EntityClass, type EntityProperty } from '@mikro-orm/core';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { batchedStatement, runStatement } from './read-batch.js';

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
  /**
   * `alias."column" as "prefix.property"`, …: the columns of a second entity read in the same row (a
   * join), apart from the first's; `fromPrefixed` takes them back out into the entity's shape.
   */
  prefixedColumns(alias: string, prefix: string): string;
  fromPrefixed(row: Record<string, unknown>, prefix: string): T;
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
  const columnLists = new Map<string, string>();
  const shape: RowShape<T> = {
    table: quote(meta.tableName),
    columns(alias) {
      // Built once per alias: every hot read asks for the same one or two.
      let list = columnLists.get(alias);
      if (list === undefined) {
        list = stored.map((p) => `${alias}.${quote(p.fieldNames[0]!)} as ${quote(p.name as string)}`).join(', ');
        columnLists.set(alias, list);
      }
      return list;
    },
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
    prefixedColumns(alias, prefix) {
      return stored.map((p) => `${alias}.${quote(p.fieldNames[0]!)} as ${quote(`${prefix}.${p.name as string}`)}`).join(', ');
    },
    fromPrefixed(row, prefix) {
      const own: Record<string, unknown> = {};
      for (const p of stored) {
        const key = `${prefix}.${p.name as string}`;
        own[p.name as string] = row[key];
        delete row[key];
      }
      return shape.toEntity(own);
    },
  };
  shapes.set(entity, shape as RowShape<unknown>);
  return shape;
}

/**
 * Runs one SQL statement (`$1`, `$2`, … placeholders) on a pooled connection of the ORM, or on its open
 * transaction's connection. It goes to the pg client directly: on hot reads knex's runner and the
 * ORM's result mapping cost more CPU than the statement itself. (So these statements do not pass
 * through knex's `query` event or the ORM's query log.) Outside a transaction, the reads that start in
 * the same turn share one round trip (src/core/database/read-batch.ts).
 */
export function queryRows(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<Record<string, unknown>[]> {
  const transaction = em.getTransactionContext() as Knex.Transaction | undefined;
  if (transaction) return runStatement(transaction, sql, params);
  return batchedStatement(em.getConnection().getKnex(), sql, params);
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
  const sql = `select ${shape.columns('t')} from ${shape.table} as t where t.${shape.column(options.where)} = any($1)${order}`;
  const rows = await queryRows(em, sql, [options.values]);
  return rows.map((row) => shape.toEntity(row));
}

/** The plain row of one entity whose properties equal `equals` (all of them), or undefined. */
export async function findRow<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  equals: Partial<Record<keyof T & string, unknown>>,
): Promise<T | undefined> {
  const shape = rowShape(em, entity);
  const entries = Object.entries(equals);
  const where = entries.map(([property], i) => `t.${shape.column(property as keyof T & string)} = $${i + 1}`).join(' and ');
  const [row] = await queryRows(em, `select ${shape.columns('t')} from ${shape.table} as t where ${where} limit 1`, entries.map(([, value]) => value));
  return row ? shape.toEntity(row) : undefined;
}
