import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity.js';

/**
 * One signed-in browser. The JWT names its session, so logout and a password change can end
 * sessions on the server instead of waiting for tokens to expire.
 */
@Entity({ tableName: 'login_sessions' })
export class LoginSession {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  /** Written by the session check at most once a minute (accounts.queries.ts `liveSessionUser`). */
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastUsedAt: Opt<Date> | null = new Date();

  /** The browser's User-Agent at sign-in, cut to 255 characters: for the person to recognise a device. */
  @Property({ type: 'string', length: 255, nullable: true })
  userAgent?: string | null = null;

  /** The sign-in address coarsened to its network (IPv4 /24, IPv6 /48): where, not who. */
  @Property({ type: 'string', length: 64, nullable: true })
  ipRange?: string | null = null;
}
