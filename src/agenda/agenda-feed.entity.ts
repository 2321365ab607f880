import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { BaseEntity } from '../core/database/base.entity.js';

/**
 * A user's secret calendar feed URL: one per user (`POST /agenda/feed` replaces its token, so the old
 * URL answers 404). Only the SHA-256 of the token is stored (`tokenHash`, unique: the one lookup a
 * feed fetch makes), as for API keys.
 */
@Entity({ tableName: 'agenda_feeds' })
export class AgendaFeed extends BaseEntity {
  @Unique()
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Unique()
  @Property({ type: 'string', length: 64, hidden: true })
  tokenHash!: string;

  /** The fingerprint of what the feed last answered (its ETag), and since when it has answered that (Last-Modified). */
  @Property({ type: 'string', length: 64, nullable: true, hidden: true })
  etag?: string | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true, hidden: true })
  contentChangedAt?: Date | null = null;
}
