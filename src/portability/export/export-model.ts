import type { EntityMetadata, EntityProperty, MetadataStorage } from '@mikro-orm/core';
import { EXPORT_REGISTRY, isExported, type ExportedEntity, type RegistryEntry } from './export-registry.js';

/** The entity every record belongs to. */
const OWNER_ENTITY = 'User';

/** How one entity's rows of one user are read: the FROM/JOIN clause, the owner column, the columns. */
export interface EntityPlan {
  className: string;
  entry: ExportedEntity;
  /** `FROM "table" t0 JOIN … t1 ON …` */
  from: string;
  /** The column holding the owning user's id, qualified, e.g. `t1."user_id"`. */
  ownerColumn: string;
  /** The primary key column of t0 (single uuid `id`: batches are read in its order). */
  keyColumn: string;
  /** Exported columns: SQL expression and property name. */
  columns: { sql: string; name: string }[];
}

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

function isReference(prop: EntityProperty): boolean {
  return prop.kind === 'm:1' || (prop.kind === '1:1' && !!prop.owner);
}

function concrete(meta: EntityMetadata): boolean {
  return !meta.abstract && !meta.embeddable && !meta.virtual;
}

/**
 * The shortest chain of references from an entity to its owning user (breadth first), e.g. a board
 * column → project → user. `[]` for the user itself; null when no reference leads to a user.
 */
export function ownerPath(meta: EntityMetadata, metadata: MetadataStorage): EntityProperty[] | null {
  if (meta.className === OWNER_ENTITY) return [];
  const queue: { meta: EntityMetadata; path: EntityProperty[] }[] = [{ meta, path: [] }];
  const seen = new Set([meta.className]);
  while (queue.length) {
    const { meta: current, path } = queue.shift()!;
    for (const prop of Object.values(current.props)) {
      if (!isReference(prop)) continue;
      if (prop.type === OWNER_ENTITY) return [...path, prop];
    }
    for (const prop of Object.values(current.props)) {
      if (!isReference(prop) || seen.has(prop.type)) continue;
      seen.add(prop.type);
      const target = metadata.find(prop.type);
      if (target) queue.push({ meta: target, path: [...path, prop] });
    }
  }
  return null;
}

/** Every concrete entity that belongs to a user (has a path to one), by class name. */
export function userOwnedEntities(metadata: MetadataStorage): EntityMetadata[] {
  return Object.values(metadata.getAll())
    .filter(concrete)
    .filter((meta) => ownerPath(meta, metadata) !== null)
    .sort((a, b) => a.className.localeCompare(b.className));
}

/** The stored, exportable properties of an entity (scalars, references, JSON), omitted ones left out. */
export function exportedProperties(meta: EntityMetadata, entry: ExportedEntity): EntityProperty[] {
  const omit = new Set(entry.omit ?? []);
  return Object.values(meta.props).filter(
    (prop) =>
      prop.persist !== false &&
      !prop.generated && // derived by the database (search vectors): not the user's data
      !prop.embedded && // an embeddable's own fields: its parent column (object mode) is exported
      (prop.kind === 'scalar' || prop.kind === 'embedded' || isReference(prop)) &&
      prop.fieldNames?.length === 1 &&
      !omit.has(prop.name),
  );
}

function columnSql(prop: EntityProperty): string {
  const column = `t0.${quote(prop.fieldNames[0])}`;
  const type = (prop.columnTypes?.[0] ?? '').toLowerCase();
  // A calendar date stays YYYY-MM-DD (the driver would make it a local-midnight Date).
  if (type === 'date') return `${column}::text`;
  // An instant as ISO 8601 in UTC with milliseconds, as the API writes it.
  if (type.startsWith('timestamp')) {
    const utc = type.includes('with time zone') || type === 'timestamptz' || type.startsWith('timestamptz') ? `${column} AT TIME ZONE 'UTC'` : column;
    return `to_char(${utc}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return column;
}

export function planFor(meta: EntityMetadata, metadata: MetadataStorage, entry: ExportedEntity): EntityPlan {
  const path = ownerPath(meta, metadata);
  if (!path) throw new Error(`${meta.className} has no reference to its user`);
  if (meta.primaryKeys.length !== 1) throw new Error(`${meta.className}: the export reads entities with one primary key`);
  let from = `FROM ${quote(meta.tableName)} t0`;
  let ownerColumn = `t0.${quote(meta.properties[meta.primaryKeys[0]].fieldNames[0])}`;
  path.forEach((prop, index) => {
    const alias = `t${index}`;
    const column = `${alias}.${quote(prop.fieldNames[0])}`;
    if (index === path.length - 1) {
      ownerColumn = column;
      return;
    }
    const target = metadata.find(prop.type)!;
    const next = `t${index + 1}`;
    from += ` JOIN ${quote(target.tableName)} ${next} ON ${next}.${quote(target.properties[target.primaryKeys[0]].fieldNames[0])} = ${column}`;
  });
  return {
    className: meta.className,
    entry,
    from,
    ownerColumn,
    keyColumn: `t0.${quote(meta.properties[meta.primaryKeys[0]].fieldNames[0])}`,
    columns: exportedProperties(meta, entry).map((prop) => ({ sql: columnSql(prop), name: prop.name })),
  };
}

export interface ExportModel {
  /** Plans grouped by domain, in the registry's order. */
  domains: { domain: string; plans: EntityPlan[] }[];
  byClass: Map<string, EntityPlan>;
}

/** The plans of every registered, exported entity that the ORM knows. */
export function exportModel(metadata: MetadataStorage): ExportModel {
  const domains: ExportModel['domains'] = [];
  const byClass = new Map<string, EntityPlan>();
  for (const [className, entry] of Object.entries(EXPORT_REGISTRY)) {
    if (!isExported(entry)) continue;
    const meta = metadata.find(className);
    if (!meta) continue; // registered by a module this build does not have
    const plan = planFor(meta, metadata, entry);
    byClass.set(className, plan);
    let group = domains.find((d) => d.domain === entry.domain);
    if (!group) domains.push((group = { domain: entry.domain, plans: [] }));
    group.plans.push(plan);
  }
  return { domains, byClass };
}

/** The SQL of one batch: rows of the user after a key, in key order (`?` placeholders). */
export function batchSql(plan: EntityPlan, batchSize: number, extraColumns: string[] = []): string {
  const select = [...plan.columns.map((c) => `${c.sql} AS ${quote(c.name)}`), ...extraColumns].join(', ');
  return `SELECT ${select} ${plan.from} WHERE ${plan.ownerColumn} = ? AND ${plan.keyColumn} > ? ORDER BY ${plan.keyColumn} LIMIT ${batchSize}`;
}

export interface RegistryGaps {
  /** User-owned entities in neither list of the registry: the export would leave their rows out. */
  unregistered: string[];
  /** `Entity.property` exported although its name looks secret (add it to `omit`, or to `keep`). */
  secretLooking: string[];
  /** `Entity.property` named in `omit`/`keep` that the entity does not have (a typo exports a secret). */
  unknownProperties: string[];
  /** `domain.collection` given to two entities. */
  duplicateCollections: string[];
}

/** What the registry misses for the entities the ORM knows (the registry test wants none). */
export function registryGaps(metadata: MetadataStorage, registry: Record<string, RegistryEntry>, secretLooking: RegExp): RegistryGaps {
  const gaps: RegistryGaps = { unregistered: [], secretLooking: [], unknownProperties: [], duplicateCollections: [] };
  const collections = new Set<string>();
  for (const meta of userOwnedEntities(metadata)) {
    const entry = registry[meta.className];
    if (!entry) {
      gaps.unregistered.push(meta.className);
      continue;
    }
    if (!isExported(entry)) continue;
    for (const name of [...(entry.omit ?? []), ...(entry.keep ?? [])]) {
      if (!meta.props.some((p) => p.name === name)) gaps.unknownProperties.push(`${meta.className}.${name}`);
    }
    const keep = new Set(entry.keep ?? []);
    for (const prop of exportedProperties(meta, entry)) {
      if ((secretLooking.test(prop.name) || secretLooking.test(prop.fieldNames[0]!)) && !keep.has(prop.name)) gaps.secretLooking.push(`${meta.className}.${prop.name}`);
    }
    const key = `${entry.domain}.${entry.collection}`;
    if (collections.has(key)) gaps.duplicateCollections.push(key);
    collections.add(key);
  }
  return gaps;
}
