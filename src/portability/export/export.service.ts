import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { IsolationLevel } from '@mikro-orm/core';
import type { AppDeps } from '../../core/context.js';
import { NotFoundError, UnauthorizedError } from '../../core/errors.js';
import { User } from '../../accounts/user.entity.js';
import { exportReadyMail } from '../../mail/templates.js';
import { signerFor, type UrlSigner } from '../../files/files-runtime.js';
import { blobKey, type StorageAdapterName } from '../../files/storage/storage.js';
import { AccountExport, type ExportStatus } from './account-export.entity.js';
import { exportModel } from './export-model.js';

export const EXPORT_JOB = 'portability:export';

/** How long the download link of a finished export stays valid (from the moment it finished). */
export const EXPORT_URL_TTL_SECONDS = 24 * 60 * 60;

/** The signed link's "variant" slot: an export link can never pass for a file link, nor the reverse. */
const SIGNED_PURPOSE = 'account-export';

export interface ExportView {
  id: string;
  status: ExportStatus;
  url: string | null;
}

function expiresOf(row: AccountExport): number {
  return Math.floor((row.finishedAt ?? row.updatedAt).getTime() / 1000) + EXPORT_URL_TTL_SECONDS;
}

/** Account export: start a job, read its state, run it (the job's body), check a download. */
export class ExportService {
  constructor(private readonly deps: AppDeps) {}

  private em() {
    return this.deps.orm.em.fork();
  }

  /** A new export job, or the user's export still pending or running (one at a time per user). */
  async start(userId: string): Promise<ExportView> {
    const em = this.em();
    const open = await em.findOne(AccountExport, { userId, status: { $in: ['pending', 'running'] } }, { orderBy: { createdAt: 'desc' } });
    if (open) return this.view(open);
    const row = em.create(AccountExport, { userId });
    await em.flush();
    await this.deps.jobs.agenda.now(EXPORT_JOB, { exportId: row.id });
    return this.view(row);
  }

  /** The user's export; another user's id answers exactly like a missing one. */
  async get(userId: string, id: string): Promise<ExportView> {
    return this.view(await this.owned(userId, id));
  }

  private async owned(userId: string, id: string): Promise<AccountExport> {
    const row = await this.em().findOne(AccountExport, { id, userId });
    if (!row) throw new NotFoundError('Export');
    return row;
  }

  private async view(row: AccountExport): Promise<ExportView> {
    let url: string | null = null;
    if (row.status === 'done' && row.storageKey) {
      const expires = expiresOf(row);
      const signature = this.deps.exportSigner.sign(row.id, `${SIGNED_PURPOSE}:${row.userId}`, expires);
      url = `${this.deps.config.baseUrl}/api/v1/account/export/${row.id}/download?` + new URLSearchParams({ expires: String(expires), signature }).toString();
    }
    return { id: row.id, status: row.status, url };
  }

  /**
   * The archive behind a download link: the owner's (another user's id is 404), done, and the link's
   * signature valid and not expired (401 otherwise, as for file links).
   */
  async download(userId: string, id: string, expires: number, signature: string): Promise<{ open(): Promise<Readable>; size: number | null; finishedAt: Date }> {
    const row = await this.owned(userId, id);
    if (row.status !== 'done' || !row.storageKey || !row.storageAdapter) throw new NotFoundError('Export archive');
    const signer = this.deps.exportSigner;
    if (expires !== expiresOf(row) || !signer.verify(row.id, `${SIGNED_PURPOSE}:${row.userId}`, expires, signature)) {
      throw new UnauthorizedError('This export link is invalid or has expired');
    }
    const rt = this.deps.files;
    const storage = rt.adapter(row.storageAdapter);
    const key = row.storageKey;
    return { open: () => storage.read(key), size: row.size == null ? null : Number(row.size), finishedAt: row.finishedAt! };
  }

  /**
   * The job: pending → running → done (archive stored, mail sent) or failed. Never throws: a failure
   * is recorded on the export, which the user sees as `failed` and can start again.
   */
  async run(exportId: string): Promise<void> {
    const em = this.em();
    const row = await em.findOne(AccountExport, { id: exportId });
    if (!row || row.status === 'done' || row.status === 'failed') return;
    row.status = 'running';
    await em.flush();
    const rt = this.deps.files;
    const staging = join(rt.stagingDir, `export-${randomUUID()}.zip`);
    const log = this.deps.logger.child({ exportId, userId: row.userId });
    const started = Date.now();
    try {
      await mkdir(rt.stagingDir, { recursive: true });
      const model = exportModel(this.deps.orm.getMetadata());
      // The archive writer (yazl, csv-stringify) is loaded by the first export, not at start-up (issue 18).
      const { writeArchive } = await import('./export-archive.js');
      // One snapshot of the account for the whole archive (records added meanwhile are not half in).
      const result = await this.deps.orm.em.fork().transactional(
        (tx) =>
          writeArchive({
            em: tx,
            userId: row.userId,
            model,
            target: staging,
            openBlob: async (file) => {
              try {
                return await rt.adapter(file.storageAdapter as StorageAdapterName).read(String(file.storageKey));
              } catch (error) {
                throw new Error(`the stored file ${String(file.id)} could not be read: ${(error as Error).message}`);
              }
            },
          }),
        { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
      );
      const size = (await stat(staging)).size;
      const key = blobKey(row.userId, 'exports', row.id);
      await rt.storage.putFile(key, staging, size, 'application/zip');
      // The new archive replaces the earlier ones (before it is reported done, so the change is seen whole).
      await this.removeOlderArchives(row);
      row.status = 'done';
      row.storageAdapter = rt.storage.name;
      row.storageKey = key;
      row.size = String(size);
      row.finishedAt = new Date();
      await em.flush();
      log.info({ size, entries: result.entries, ms: Date.now() - started }, 'account export done');
      await this.mailReady(row);
    } catch (error) {
      log.error({ err: error }, 'account export failed');
      row.status = 'failed';
      row.error = (error as Error).message?.slice(0, 2000) ?? String(error);
      row.finishedAt = new Date();
      await em.flush().catch((flushError) => log.error({ err: flushError }, 'could not record the failed export'));
    } finally {
      await rm(staging, { force: true });
    }
  }

  /** A finished export replaces the user's earlier archives: their blobs go, their url becomes null. */
  private async removeOlderArchives(latest: AccountExport): Promise<void> {
    const em = this.em();
    const older = await em.find(AccountExport, { userId: latest.userId, id: { $ne: latest.id }, storageKey: { $ne: null } });
    const rt = this.deps.files;
    for (const row of older) {
      try {
        await rt.adapter(row.storageAdapter!).delete(row.storageKey!);
        row.storageKey = null;
        await em.flush();
      } catch (error) {
        this.deps.logger.warn({ err: error, exportId: row.id }, 'could not remove an earlier export archive');
      }
    }
  }

  private async mailReady(row: AccountExport): Promise<void> {
    try {
      const user = await this.em().findOneOrFail(User, { id: row.userId });
      const { url } = await this.view(row);
      await this.deps.mailer.send(exportReadyMail(user.email, url!));
    } catch (error) {
      // The archive stands; the app shows its link too.
      this.deps.logger.error({ err: error, exportId: row.id }, 'export mail failed');
    }
  }
}

declare module '../../core/context.js' {
  interface AppDeps {
    /** Signs export download links (exportSignerFor). */
    exportSigner: UrlSigner;
  }
}

/** The export links' signer: the file links' kind, with a key of its own derived from the same secret. */
export function exportSignerFor(secret: string): UrlSigner {
  return signerFor(secret, 'export-url-signing-v1');
}
