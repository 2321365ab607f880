import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { Opt } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from '../user.entity.js';

/**
 * An account at an OpenID Connect provider linked to a user: the provider's `sub` is the stable key
 * (the email may change there), unique per issuer. Made on an auto-created first sign-in, or after the
 * person proved the password of the account whose email the provider named.
 */
@Entity({ tableName: 'oidc_identities' })
@Unique({ properties: ['issuer', 'subject'] })
export class OidcIdentity {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text' })
  issuer!: string;

  @Property({ type: 'text' })
  subject!: string;

  /** The email the provider last vouched for (for the person to recognise the link). */
  @Property({ type: 'string', length: 320 })
  email!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  lastUsedAt: Opt<Date> = new Date();
}
