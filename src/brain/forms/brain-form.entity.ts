import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { User } from '../../accounts/user.entity.js';
import { BaseEntity } from '../../core/database/base.entity.js';
import { BrainDatabase } from '../databases/brain-database.entity.js';
import type { StoredFormConfig } from './form-config.js';

/** A Tally-like form that fills a Brain database; shared by `publicSlug` once published. */
@Entity({ tableName: 'brain_form' })
@Index({ properties: ['userId', 'createdAt'] })
@Index({ name: 'brain_form_search_vector_index', expression: 'create index "brain_form_search_vector_index" on "brain_form" using gin ("search_vector")' })
export class BrainForm extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Property({ type: 'string', length: 200 })
  name!: string;

  /** Deleting the database deletes its forms (a form without a database cannot take answers). */
  @ManyToOne(() => BrainDatabase, { mapToPk: true, deleteRule: 'cascade', fieldName: 'database_id' })
  @Index()
  databaseId!: string;

  /** operations.md's `config` without `accessPassword` (kept only as `accessPasswordHash`). */
  @Property({ type: 'json', columnType: 'jsonb' })
  config!: StoredFormConfig;

  /** argon2id hash of the access password, never read back. */
  @Property({ type: 'text', nullable: true, hidden: true })
  accessPasswordHash?: string | null = null;

  @Property({ type: 'boolean', default: false })
  syncFields: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  published: Opt<boolean> = false;

  /** Assigned on the first publish and kept afterwards, so a shared link survives unpublish/publish. */
  @Property({ type: 'string', length: 32, nullable: true, unique: true })
  publicSlug?: string | null = null;

  /** Full-text vector kept by PostgreSQL: the name (A), the description and field labels (B). */
  @Property({
    type: 'unknown',
    columnType: 'tsvector',
    // Written as PostgreSQL prints it back, so the schema diff sees no change.
    generated: `((setweight(to_tsvector('simple'::regconfig, (COALESCE(name, ''::character varying))::text), 'A'::"char") || setweight(to_tsvector('simple'::regconfig, COALESCE((config ->> 'description'::text), ''::text)), 'B'::"char")) || setweight(jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(config, '$."fields"[*]."label"'::jsonpath), '["string"]'::jsonb), 'B'::"char")) stored`,
    lazy: true,
    hidden: true,
    nullable: true,
  })
  searchVector?: unknown;
}
