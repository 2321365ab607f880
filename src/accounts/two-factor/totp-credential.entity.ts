import { Entity, OneToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from '../user.entity.js';

/**
 * A person's authenticator app (TOTP, RFC 6238): one per user. Enrolment writes it with `enabledAt`
 * null; the first valid code enables it. The secret is stored encrypted (secret-box.ts).
 */
@Entity({ tableName: 'totp_credentials' })
export class TotpCredential {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @OneToOne(() => User, { owner: true, deleteRule: 'cascade', unique: true })
  user!: User;

  /** AES-256-GCM of the base32 secret (secret-box.ts). */
  @Property({ type: 'text' })
  secretEncrypted!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  enabledAt?: Date | null = null;

  /** The last 30-second time step a code was accepted for: that code and older ones are refused (replay). */
  @Property({ type: 'integer', nullable: true })
  lastUsedStep?: number | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();
}
