import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from '../user.entity.js';

/**
 * The second step of a sign-in: the first factor passed, no session exists yet. Single use, five
 * minutes, at most five wrong answers; only the SHA-256 of its token is stored (second-step.ts).
 */
@Entity({ tableName: 'sign_in_challenges' })
export class SignInChallenge {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Unique()
  @Property({ type: 'string', length: 64 })
  tokenHash!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  usedAt?: Date | null = null;

  /** The WebAuthn challenge of a passkey answering this step (src/accounts/passkeys). */
  @Property({ type: 'text', nullable: true })
  webauthnChallenge?: string | null = null;

  /** Wrong answers so far; the step is dead at MAX_SECOND_STEP_ATTEMPTS. */
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();
}
