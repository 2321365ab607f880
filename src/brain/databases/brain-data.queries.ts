import type { EntityManager } from '@mikro-orm/postgresql';
import type { PropertyDefinition } from './properties.js';

/** The Brain databases' hand-written SQL: records are JSON values filtered and sorted by property. */

/** A records query, read and checked from the URL (record.service.ts `readRecordQuery`). */
export interface RecordQuery {
  /** property key → wanted value (see docs/brain.md: equality, text contains, multi_select contains) */
  filter: Record<string, string>;
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  limit: number;
}

export interface RecordRow {
  id: string;
  database_id: string;
  values: Record<string, unknown>;
  form_id: string | null;
  created_at: Date;
  updated_at: Date;
  version: number;
  total: string;
}

/**
 * One statement: the page of a database's records matching the query's filters, in its order, with the
 * total (a second statement only for a page past the end, to still tell the total).
 */
export async function recordPage(em: EntityManager, userId: string, databaseId: string, properties: PropertyDefinition[], q: RecordQuery): Promise<{ rows: RecordRow[]; total: number }> {
  const byKey = new Map(properties.map((p) => [p.key, p]));
  const where: string[] = ['r.user_id = ?', 'r.database_id = ?'];
  const params: unknown[] = [userId, databaseId];
  for (const [key, value] of Object.entries(q.filter)) {
    const def = byKey.get(key)!;
    switch (def.type) {
      case 'text':
      case 'url':
      case 'email':
        where.push(`r.values->>? ilike ?`);
        params.push(key, `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        break;
      case 'number':
        where.push(`jsonb_typeof(r.values->?) = 'number' and (r.values->>?)::numeric = ?::numeric`);
        params.push(key, key, value);
        break;
      case 'checkbox':
        where.push(value === 'true' ? `r.values->? = 'true'::jsonb` : `coalesce(r.values->?, 'false'::jsonb) = 'false'::jsonb`);
        params.push(key);
        break;
      case 'multi_select':
        where.push(`r.values->? @> ?::jsonb`);
        params.push(key, JSON.stringify([value]));
        break;
      default:
        where.push(`r.values->>? = ?`);
        params.push(key, value);
    }
  }
  const whereParams = [...params];
  let orderSql: string;
  const dir = q.order === 'asc' ? 'asc' : 'desc';
  if (q.sort === 'createdAt') orderSql = `r.created_at ${dir}`;
  else if (q.sort === 'updatedAt') orderSql = `r.updated_at ${dir}`;
  else {
    const def = byKey.get(q.sort)!;
    // Numbers sort as numbers, checkboxes as booleans, the rest as text; records without the value last.
    const expr =
      def.type === 'number'
        ? `(case when jsonb_typeof(r.values->?) = 'number' then (r.values->>?)::numeric end)`
        : def.type === 'checkbox'
          ? `(case when jsonb_typeof(r.values->?) = 'boolean' then (r.values->>?)::boolean end)`
          : `(r.values->>?)`;
    orderSql = `${expr} ${dir} nulls last, r.created_at desc`;
    params.push(q.sort);
    if (def.type === 'number' || def.type === 'checkbox') params.push(q.sort);
  }
  const offset = (q.page - 1) * q.limit;
  const rows = await em.getConnection().execute<RecordRow[]>(
    `select r.id, r.database_id, r.values, r.form_id, r.created_at, r.updated_at, r.version, count(*) over () as total
       from brain_record r where ${where.join(' and ')} order by ${orderSql}, r.id limit ${q.limit} offset ${offset}`,
    params,
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && offset > 0) {
    const [c] = await em.getConnection().execute<{ n: string }[]>(`select count(*) as n from brain_record r where ${where.join(' and ')}`, whereParams);
    total = Number(c.n);
  }
  return { rows, total };
}


export interface BrainDataCounts {
  databases: number;
  records: number;
  forms: number;
  recordsPerDatabase: { databaseId: string; name: string; records: number }[];
}

/** Counts for `/brain/stats`, in one statement. */
export async function brainDataCounts(em: EntityManager, userId: string): Promise<BrainDataCounts> {
  const [row] = await em.getConnection().execute<{ forms: number; dbs: { databaseId: string; name: string; records: number }[] }[]>(
    `select (select count(*) from brain_form f where f.user_id = ?)::int as forms,
            coalesce((select json_agg(json_build_object('databaseId', d.id, 'name', d.name,
                        'records', (select count(*) from brain_record r where r.database_id = d.id)) order by d.created_at desc, d.id)
                        from brain_database d where d.user_id = ?), '[]'::json) as dbs`,
    [userId, userId],
  );
  const recordsPerDatabase = row.dbs.map((d) => ({ databaseId: d.databaseId, name: d.name, records: Number(d.records) }));
  return { databases: recordsPerDatabase.length, records: recordsPerDatabase.reduce((s, r) => s + r.records, 0), forms: Number(row.forms), recordsPerDatabase };
}
