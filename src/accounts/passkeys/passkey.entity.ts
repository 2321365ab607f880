import { BigIntType, Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { BaseEntity } from '../../core/database/base.entity.js';
import { DateTimeISO } from '../../core/scalars.js';
import { User } from '../user.entity.js';

/**
 * A WebAuthn credential (passkey) of a user. `credentialId` (base64url, as the browser sends it) is
 * unique: it is how an assertion finds its key, even when no e-mail was typed. The public key and the
 * signature counter are what verification needs; they are never part of the API's answers.
 */
@ObjectType('Passkey', { simpleResolvers: true, description: 'A passkey (WebAuthn credential) that signs the user in.' })
@Entity({ tableName: 'passkeys' })
export class Passkey extends BaseEntity {
  /** The owner's id (named `user`, as the sign-in step's `hasPasskeys` hook queries it). */
  @Index()
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  user!: string;

  @Unique()
  @Property({ type: 'text', hidden: true })
  credentialId!: string;

  @Property({ type: 'blob', columnType: 'bytea', hidden: true })
  publicKey!: Buffer;

  /** The authenticator's signature counter (uint32, so bigint); many passkeys always report 0. */
  @Property({ type: new BigIntType('number'), hidden: true })
  counter: Opt<number> = 0;

  /** Hints the browser uses to reach the authenticator (`internal`, `hybrid`, `usb`, …). */
  @Field(() => [String], { description: 'How the browser reaches the authenticator: internal, hybrid, usb, nfc, ble, smart-card, cable.' })
  @Property({ type: 'string[]', columnType: 'text[]', default: '{}' })
  transports: Opt<string[]> = [];

  @Field(() => String)
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Field(() => String, { description: '`singleDevice` (bound to one authenticator) or `multiDevice` (synced, e.g. by a password manager).' })
  @Property({ type: 'string', length: 16 })
  deviceType!: string;

  @Field(() => Boolean, { description: 'Whether a synced passkey is backed up by its provider.' })
  @Property({ type: 'boolean' })
  backedUp: Opt<boolean> = false;

  @Field(() => DateTimeISO, { nullable: true, description: 'The last sign-in with it.' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null = null;
}
