import { createWriteStream } from 'node:fs';
import { CSV_OPTIONS, safeCell } from '../../core/csv-cell.js';
import { withoutInvisibleFormat } from '../../files/safe-file-name.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { ZipFile } from 'yazl';
import type { EntityManager } from '@mikro-orm/postgresql';
import { batchSql, type EntityPlan, type ExportModel } from './export-model.js';
import { readBatch } from './export.queries.js';

/** Rows read per statement: enough to keep round trips few, few enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 500;

const FIRST_KEY = '00000000-0000-0000-0000-000000000000';

export type ExportRecord = Record<string, unknown>;

/** Every row of one entity that the user owns, batch by batch, in id order (keyset: no OFFSET). */
export async function* recordBatches(em: EntityManager, plan: EntityPlan, userId: string): AsyncGenerator<ExportRecord[]> {
  const sql = batchSql(plan, EXPORT_BATCH_SIZE);
  let after = FIRST_KEY;
  for (;;) {
    const rows = await readBatch(em, sql, userId, after);
    if (rows.length) yield rows;
    if (rows.length < EXPORT_BATCH_SIZE) return;
    after = String(rows[rows.length - 1].id);
  }
}

/** A cell of any column: formula-like text gets a leading quote (safeCell); numbers stay as they are. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return /^-?\d+(\.\d+)?$/.test(text) ? text : safeCell(text);
}

/** A readable of bytes from an async generator of strings, pulled only as fast as the zip consumes it. */
function bytes(generator: AsyncGenerator<string>): Readable {
  return Readable.from(
    (async function* () {
      for await (const text of generator) if (text) yield Buffer.from(text, 'utf8');
    })(),
    { objectMode: false },
  );
}

export interface ArchiveCounts {
  [collection: string]: number;
}

export interface ArchiveOptions {
  em: EntityManager;
  userId: string;
  model: ExportModel;
  /** The bytes of one of the user's stored files (a `files` record). */
  openBlob(file: ExportRecord): Promise<Readable>;
  /** The local file the zip is written to. */
  target: string;
}

/**
 * Writes the user's archive: data.json (one key per domain, each an object of collections), the CSV
 * files, Markdown files, the stored files' bytes under files/, and manifest.json. One entry at a
 * time, each a stream the zip pulls from: the database is read batch by batch as the zip needs it, so
 * memory holds at most one batch whatever the size of the account.
 */
export async function writeArchive(options: ArchiveOptions): Promise<{ counts: ArchiveCounts; entries: number }> {
  const { em, userId, model } = options;
  const zip = new ZipFile();
  let failure: Error | undefined;
  const failed = new Promise<never>((_, reject) => {
    zip.on('error', (error: Error) => {
      failure = error;
      reject(error);
    });
  });
  failed.catch(() => undefined);
  const written = pipeline(zip.outputStream, createWriteStream(options.target));
  written.catch(() => undefined);
  const mtime = new Date();
  let entries = 0;

  /** Adds one entry and waits until the zip has read all of it (so the next starts only then). */
  const add = async (name: string, stream: Readable, compress = true): Promise<void> => {
    if (failure) throw failure;
    const consumed = new Promise<void>((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('error', reject);
    });
    zip.addReadStream(stream, name, { mtime, compress });
    entries += 1;
    await Promise.race([consumed, failed, written.then(() => Promise.reject(new Error('the zip ended early')))]);
  };

  const counts: ArchiveCounts = {};

  // data.json: {"account":{"user":[…],"settings":[…]},"planning":{…},…}
  await add(
    'data.json',
    bytes(
      (async function* () {
        yield '{';
        for (const [d, { domain, plans }] of model.domains.entries()) {
          yield `${d ? ',' : ''}\n${JSON.stringify(domain)}: {`;
          for (const [p, plan] of plans.entries()) {
            const key = `${domain}.${plan.entry.collection}`;
            counts[key] = 0;
            yield `${p ? ',' : ''}\n  ${JSON.stringify(plan.entry.collection)}: [`;
            for await (const batch of recordBatches(em, plan, userId)) {
              yield batch.map((record) => `${counts[key]++ ? ',' : ''}\n    ${JSON.stringify(record)}`).join('');
            }
            yield '\n  ]';
          }
          yield '\n}';
        }
        yield '\n}\n';
      })(),
    ),
  );

  // One CSV per list a spreadsheet user wants (registry `csv`), the same columns as data.json.
  for (const { plans } of model.domains) {
    for (const plan of plans) {
      if (!plan.entry.csv) continue;
      const columns = plan.columns.map((c) => c.name);
      await add(
        plan.entry.csv,
        bytes(
          (async function* () {
            yield stringify([columns], CSV_OPTIONS);
            for await (const batch of recordBatches(em, plan, userId)) {
              yield stringify(
                batch.map((record) => columns.map((column) => csvCell(record[column]))),
                CSV_OPTIONS,
              );
            }
          })(),
        ),
      );
    }
  }

  // Markdown: one file per record (journal entries, notes).
  for (const { plans } of model.domains) {
    for (const plan of plans) {
      const markdown = plan.entry.markdown;
      if (!markdown) continue;
      for await (const batch of recordBatches(em, plan, userId)) {
        for (const record of batch) {
          const { name, text } = markdown.render(record);
          await add(`${markdown.dir}/${name}`, Readable.from([Buffer.from(text, 'utf8')], { objectMode: false }));
        }
      }
    }
  }

  // The stored files' bytes, byte for byte (stored, not compressed again).
  const filesPlan = model.byClass.get('StoredFile');
  if (filesPlan) {
    for await (const batch of recordBatches(em, filesPlan, userId)) {
      for (const file of batch) {
        await add(`files/${String(file.id)}/${zipSafeName(String(file.fileName ?? 'file'))}`, await options.openBlob(file), false);
      }
    }
  }

  const manifest = {
    format: 'life-planner-export',
    version: 1,
    userId,
    exportedAt: mtime.toISOString(),
    domains: model.domains.map((d) => d.domain),
    counts,
  };
  await add('manifest.json', Readable.from([Buffer.from(JSON.stringify(manifest, null, 2) + '\n')], { objectMode: false }));

  zip.end();
  await Promise.race([written, failed]);
  return { counts, entries };
}

/** A stored file name as one zip path segment (names are cleaned on upload; this keeps them one segment). */
function zipSafeName(name: string): string {
  const safe = withoutInvisibleFormat(name).replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').replace(/^\.+/, '_');
  return safe || 'file';
}
