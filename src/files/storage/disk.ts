import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { assertKey, type BlobStorage } from './storage.js';

/**
 * Blobs as files under FILE_UPLOAD_DIR. Writes go to a temporary name in the same folder and are
 * renamed into place, so a crash never leaves a half-written blob under a real key.
 */
export class DiskStorage implements BlobStorage {
  readonly name = 'disk' as const;

  constructor(readonly root: string) {}

  pathOf(key: string): string {
    return join(this.root, ...assertKey(key));
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(localPath, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const temp = `${target}.${randomUUID()}.part`;
      try {
        await copyFile(localPath, temp);
        await rename(temp, target);
      } finally {
        await rm(temp, { force: true });
      }
      await unlink(localPath);
    }
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    const target = this.pathOf(key);
    const temp = `${target}.${randomUUID()}.part`;
    try {
      // The folder usually exists (a variant is written beside its original): make it only when missing.
      await writeFile(temp, data).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(dirname(target), { recursive: true });
        await writeFile(temp, data);
      });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    await stat(path);
    return createReadStream(path);
  }

  async localPath(key: string): Promise<string> {
    const path = this.pathOf(key);
    await stat(path);
    return path;
  }

  readBuffer(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.pathOf(key)).then(
      () => true,
      () => false,
    );
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(join(this.root, ...assertKey(prefix)), { recursive: true, force: true });
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async presignedUrl(): Promise<null> {
    return null;
  }

  close(): void {}
}
