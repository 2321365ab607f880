import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../accounts/user.entity.js';
import { requireFeature } from '../accounts/subscription.js';
import { NotFoundError, RuleViolationError, ValidationError } from '../core/errors.js';
import { deleted, type Deleted } from '../core/deleted.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { ApiKey } from './api-key.entity.js';
import { forgetApiKeysHere } from './api-key-auth.js';
import { newKeySecret } from './api-key-secret.js';
import { API_KEY_NAME_MAX, type ApiKeyMessage, type CreatedApiKey } from './api-key.types.js';
import { findPage } from '../core/database/find-page.js';

export interface NewApiKey {
  name: string;
  expiresAt?: Date | null;
}

const ROTATED_SUFFIX = ' (rotated)';

/** `Name` → `Name (rotated)`; rotating again keeps one suffix, and the result stays within the length limit. */
export function rotatedName(name: string): string {
  const base = name.endsWith(ROTATED_SUFFIX) ? name.slice(0, -ROTATED_SUFFIX.length) : name;
  return base.slice(0, API_KEY_NAME_MAX - ROTATED_SUFFIX.length) + ROTATED_SUFFIX;
}

function created(row: ApiKey, key: string): CreatedApiKey {
  return { id: row.id, key, keyPrefix: row.keyPrefix, name: row.name, createdAt: row.createdAt, expiresAt: row.expiresAt ?? null };
}

/**
 * A user's Public API keys. Creating and rotating need a plan with `api_keys`; listing, revoking and
 * deleting stay open so a user whose plan lapsed can still clean up. Another user's key is NOT_FOUND.
 */
export class ApiKeyService {
  constructor(private readonly em: EntityManager) {}

  async list(userId: string, args: PageArgs): Promise<Page<ApiKey>> {
    return findPage(this.em, ApiKey, { userId }, { createdAt: 'desc', id: 'asc' }, args);
  }

  async create(user: User, input: NewApiKey): Promise<CreatedApiKey> {
    requireFeature(user, 'api_keys');
    if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
      throw new ValidationError('expiresAt must be in the future', [{ path: ['expiresAt'], message: 'expiresAt must be in the future' }]);
    }
    const secret = newKeySecret();
    const row = this.em.create(ApiKey, {
      userId: user.id,
      name: input.name.trim(),
      keyPrefix: secret.keyPrefix,
      keyHash: secret.keyHash,
      expiresAt: input.expiresAt ?? null,
    });
    await this.em.flush();
    return created(row, secret.key);
  }

  async revoke(userId: string, keyId: string): Promise<ApiKeyMessage> {
    const row = await this.get(userId, keyId);
    if (row.revoked) return { id: row.id, message: 'API key was already revoked' };
    row.revoked = true;
    row.revokedAt = new Date();
    await this.em.flush();
    forgetApiKeysHere(userId);
    return { id: row.id, message: 'API key revoked' };
  }

  /** Revokes the key and issues a new one with the same expiry, in one transaction. */
  async rotate(user: User, keyId: string): Promise<CreatedApiKey> {
    requireFeature(user, 'api_keys');
    const rotated = await this.em.transactional(async (em) => {
      const old = await em.findOne(ApiKey, { id: keyId, userId: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!old) throw new NotFoundError('API key');
      if (old.revoked) throw new RuleViolationError('api_key_inactive', 'A revoked API key cannot be rotated; create a new one', ['keyId']);
      if (old.expiresAt && old.expiresAt.getTime() <= Date.now()) {
        throw new RuleViolationError('api_key_inactive', 'An expired API key cannot be rotated; create a new one', ['keyId']);
      }
      old.revoked = true;
      old.revokedAt = new Date();
      const secret = newKeySecret();
      const row = em.create(ApiKey, {
        userId: user.id,
        name: rotatedName(old.name),
        keyPrefix: secret.keyPrefix,
        keyHash: secret.keyHash,
        expiresAt: old.expiresAt ?? null,
      });
      await em.flush();
      return created(row, secret.key);
    });
    forgetApiKeysHere(user.id);
    return rotated;
  }

  async delete(userId: string, keyId: string): Promise<Deleted> {
    const row = await this.get(userId, keyId);
    await this.em.remove(row).flush();
    forgetApiKeysHere(userId);
    return deleted(row.id, 'API key');
  }

  private async get(userId: string, keyId: string): Promise<ApiKey> {
    const row = await this.em.findOne(ApiKey, { id: keyId, userId });
    if (!row) throw new NotFoundError('API key');
    return row;
  }
}
