import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity.js';

export type AuthTokenKind = 'password_reset' | 'email_verification';

/** Single-use mail token; only its SHA-256 is stored. */
@Entity({ tableName: 'auth_tokens' })
export class AuthToken {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => ['password_reset', 'email_verification'], type: 'string' })
  kind!: AuthTokenKind;

  @Index()
  @Property({ type: 'string', length: 64 })
  tokenHash!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  usedAt?: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();
}
