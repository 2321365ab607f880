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
}
