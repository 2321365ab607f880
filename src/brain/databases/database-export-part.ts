import type { BrainExportPart } from '../export/brain-export-part.js';
import { nameSlug } from './name-slug.js';
import { BrainDatabase } from './brain-database.entity.js';
import { BrainRecord } from './brain-record.entity.js';
import { databaseView } from './database.service.js';
import { recordView } from './record.service.js';

/** One JSON file per database with its records: `databases/<name-slug>-<id8>.json` (two statements). */
export const databaseExportPart: BrainExportPart = {
  async write(zip, em, userId) {
    const databases = await em.find(BrainDatabase, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    if (!databases.length) return;
    const records = await em.find(BrainRecord, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    const byDatabase = new Map<string, BrainRecord[]>();
    for (const r of records) {
      const list = byDatabase.get(r.databaseId) ?? [];
      list.push(r);
      byDatabase.set(r.databaseId, list);
    }
    for (const db of databases) {
      const body = { ...databaseView(db), records: (byDatabase.get(db.id) ?? []).map(recordView) };
      zip.addBuffer(Buffer.from(JSON.stringify(body, null, 2) + '\n'), `databases/${nameSlug(db.name, 'database')}-${db.id.slice(0, 8)}.json`, { mtime: db.updatedAt });
    }
  },
};
