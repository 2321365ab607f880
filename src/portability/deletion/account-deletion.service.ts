import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../accounts/user.entity.js';
import { verifyPassword } from '../../accounts/password.js';
import { forgetSessionsHere } from '../../accounts/session-auth.js';
import { forgetDayIdsHere } from '../../planning/today-day-ids.js';
import { InvalidCredentialsError, UnauthorizedError } from '../../core/errors.js';
import { StoredFile } from '../../files/stored-file.entity.js';
import { StoragePurge } from './storage-purge.entity.js';
import { forgetRespondent } from '../../brain/forms/forms.queries.js';
import { deleteOwnedRows, deleteUserRow, deletionOrder, lockUser } from './deletion.queries.js';

/**
 * DELETE /account: the user and everything of theirs, in every domain, in ONE database transaction.
 * The tables are found in the database catalog (deletion.queries.ts), not listed here, and emptied
 * children before parents along their foreign keys (a Brain note before its folder). Blobs cannot
 * join a database transaction: the same transaction records what storage must lose (a StoragePurge
 * row) and the purge job removes it afterwards, retried until done.
 */
export class AccountDeletionService {
  constructor(private readonly em: EntityManager) {}

  /** Returns the storage purge to run once the transaction has committed, and the address the user had. */
  async delete(userId: string, password: string, defaultAdapter: string): Promise<{ purgeId: string; email: string }> {
    const user = await this.em.findOne(User, { id: userId });
    if (!user) throw new UnauthorizedError();
    if (!(await verifyPassword(user.passwordHash, password))) throw new InvalidCredentialsError('The password is wrong'); // operations.md: 401, and nothing removed
    const deletedAccount = await this.em.transactional(async (tx) => {
      await lockUser(tx, userId);
      const files = await tx.find(StoredFile, { userId }, { fields: ['storageAdapter'] });
      const adapters = [...new Set([defaultAdapter, ...files.map((f) => f.storageAdapter)])].sort();
      const purge = tx.create(StoragePurge, { prefix: userId, adapters });
      await tx.flush();
      await forgetRespondent(tx, userId);
      for (const owned of await deletionOrder(tx)) await deleteOwnedRows(tx, owned, userId);
      await deleteUserRow(tx, userId);
      return { purgeId: purge.id, email: user.email };
    });
    forgetSessionsHere(userId);
    forgetDayIdsHere(userId);
    return deletedAccount;
  }
}
