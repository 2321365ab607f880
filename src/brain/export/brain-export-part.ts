import type { EntityManager } from '@mikro-orm/postgresql';
import type { ZipFile } from 'yazl';
/** One kind of Brain entity's files in the export zip. */
export interface BrainExportPart {
  write(zip: ZipFile, em: EntityManager, userId: string): Promise<void>;
}
