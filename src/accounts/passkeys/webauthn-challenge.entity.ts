import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from '../user.entity.js';

export type WebauthnChallengePurpose = 'registration' | 'sign_in';

/**
 * A WebAuthn challenge the server handed out and has not seen answered yet: registration (for the
 * signed-in user) or a sign-in with a passkey alone (no user known until the assertion names its
 * credential). Short-lived and single use: finishing deletes the row before verifying, so a replayed
 * response finds nothing. (The second factor after a password keeps its challenge on the sign-in
 * challenge row instead, src/accounts/sign-in/.)
 */
@Entity({ tableName: 'webauthn_challenges' })
export class WebauthnChallenge {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id', nullable: true })
  userId?: string | null = null;

  @Enum({ items: () => ['registration', 'sign_in'], type: 'string' })
  purpose!: WebauthnChallengePurpose;

  /** base64url, as in the options sent to the browser. */
  @Property({ type: 'text' })
  challenge!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Index()
  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;
}
