import { Entity, Property } from '@mikro-orm/core';
import { BaseEntity } from '../../core/database/base.entity.js';

/**
 * An OAuth client registered through `/register` (RFC 7591). The id is the `client_id`. A confidential
 * client's secret is kept only as its SHA-256 (`clientSecretHash`); `metadata` is the registration
 * document as accepted (without the secret).
 */
@Entity({ tableName: 'oauth_clients' })
export class OAuthClient extends BaseEntity {
  @Property({ type: 'string', length: 64, nullable: true, hidden: true })
  clientSecretHash?: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  clientSecretExpiresAt?: Date | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  clientName?: string | null = null;

  @Property({ type: 'json' })
  metadata!: Record<string, unknown>;
}
