import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from '../user.entity.js';

/** One of the ten one-time codes that stand in for the authenticator; only its SHA-256 is stored. */
@Entity({ tableName: 'recovery_codes' })
@Index({ properties: ['user', 'codeHash'] })
export class RecoveryCode {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'string', length: 64 })
  codeHash!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  usedAt?: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();
}
