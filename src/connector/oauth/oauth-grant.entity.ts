import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../core/database/base.entity.js';
import { OAuthConnection } from './oauth-connection.entity.js';

/**
 * An authorization code: single use, short-lived, bound to the client, redirect URI, PKCE challenge
 * and resource of its request. Only its SHA-256 is stored. `familyId` names the token family its
 * exchange starts (a second exchange revokes that family).
 */
@Entity({ tableName: 'oauth_codes' })
export class OAuthCode extends BaseEntity {
  @Unique()
  @Property({ type: 'string', length: 64 })
  codeHash!: string;

  @Index()
  @ManyToOne(() => OAuthConnection, { mapToPk: true, deleteRule: 'cascade', fieldName: 'connection_id' })
  connectionId!: string;

  @Property({ type: 'uuid' })
  clientId!: string;

  @Property({ type: 'text' })
  redirectUri!: string;

  @Property({ type: 'string', length: 128 })
  codeChallenge!: string;

  @Property({ type: 'text' })
  resource!: string;

  @Property({ type: 'uuid' })
  familyId!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  usedAt?: Date | null = null;

  /** The scopes the person granted on the consent page (the tokens it starts carry them). */
  @Property({ type: 'string[]', columnType: 'text[]', default: '{}' })
  scopes: string[] = [];
}

export type OAuthTokenKind = 'access' | 'refresh';

/**
 * An access or refresh token (only its SHA-256 is stored). Tokens of one code exchange and all its
 * refreshes share `familyId`; a refresh token is used once (`rotatedAt`), and presenting it again
 * revokes the family.
 */
@Entity({ tableName: 'oauth_tokens' })
export class OAuthToken extends BaseEntity {
  @Unique()
  @Property({ type: 'string', length: 64 })
  tokenHash!: string;

  @Property({ type: 'string', length: 10 })
  kind!: OAuthTokenKind;

  @Index()
  @ManyToOne(() => OAuthConnection, { mapToPk: true, deleteRule: 'cascade', fieldName: 'connection_id' })
  connectionId!: string;

  @Property({ type: 'uuid' })
  clientId!: string;

  @Index()
  @Property({ type: 'uuid' })
  familyId!: string;

  @Property({ type: 'text' })
  resource!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  rotatedAt?: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null = null;

  /**
   * The scopes this token may use (its code's, or fewer when a refresh named fewer); a call is also
   * held to the connection's current grant, so narrowing the connection narrows its tokens at once.
   * Null on tokens issued before scopes existed: the connection's grant alone.
   */
  @Property({ type: 'string[]', columnType: 'text[]', nullable: true })
  scopes?: string[] | null = null;
}
