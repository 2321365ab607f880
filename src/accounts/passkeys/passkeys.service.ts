import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../../core/deleted.js';
import { NotFoundError } from '../../core/errors.js';
import { Passkey } from './passkey.entity.js';
import { MAX_PASSKEYS } from './passkey-registration.js';

/** The signed-in user's passkeys: list, rename, remove. Another user's passkey is NOT_FOUND, like a missing one. */
export class PasskeyService {
  constructor(private readonly em: EntityManager) {}

  list(userId: string): Promise<Passkey[]> {
    return this.em.find(Passkey, { user: userId }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: MAX_PASSKEYS });
  }

  async rename(userId: string, passkeyId: string, name: string): Promise<Passkey> {
    const row = await this.get(userId, passkeyId);
    row.name = name.trim();
    await this.em.flush();
    return row;
  }

  async remove(userId: string, passkeyId: string): Promise<Deleted> {
    const taken = await this.em.nativeDelete(Passkey, { id: passkeyId, user: userId });
    if (!taken) throw new NotFoundError('Passkey');
    return deleted(passkeyId, 'Passkey');
  }

  private async get(userId: string, passkeyId: string): Promise<Passkey> {
    const row = await this.em.findOne(Passkey, { id: passkeyId, user: userId });
    if (!row) throw new NotFoundError('Passkey');
    return row;
  }
}
