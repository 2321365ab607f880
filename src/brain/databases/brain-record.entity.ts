import { Entity, Index, ManyToOne, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../../accounts/user.entity.js';
import { VersionedEntity } from '../../core/database/versioned.entity.js';
import { BrainDatabase } from './brain-database.entity.js';

/**
 * One row of a Brain database: `values` keyed by property key. A record made by a form submit also
 * names its form and the respondent columns the one-response rule is enforced on (unique per form).
 */
@Entity({ tableName: 'brain_record' })
@Index({ properties: ['databaseId', 'createdAt'] })
@Index({ properties: ['userId'] })
@Unique({ properties: ['formId', 'respondentKey'] })
@Unique({ properties: ['formId', 'respondentUserId'] })
@Index({ name: 'brain_record_search_vector_index', expression: 'create index "brain_record_search_vector_index" on "brain_record" using gin ("search_vector")' })
export class BrainRecord extends VersionedEntity {
  /** The owner (the database's owner), kept on the row for owner-scoped reads and search. */
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @ManyToOne(() => BrainDatabase, { mapToPk: true, deleteRule: 'cascade', fieldName: 'database_id' })
  databaseId!: string;

  @Property({ type: 'json', columnType: 'jsonb' })
  values: Opt<Record<string, unknown>> = {};

  /** The form whose submit made this record (no foreign key: deleting a form keeps its answers). */
  @Property({ type: 'uuid', nullable: true })
  formId?: string | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  respondentKey?: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  respondentUserId?: string | null = null;

  /** Salted SHA-256 of the submitting IP, for abuse review only (never refuses a submit). */
  @Property({ type: 'string', length: 100, nullable: true })
  respondentIpHash?: string | null = null;

  /** Full-text vector kept by PostgreSQL: string and number values (B), without the respondent fingerprint. */
  @Property({
    type: 'unknown',
    columnType: 'tsvector',
    // Written as PostgreSQL prints it back, so the schema diff sees no change.
    generated: `(setweight(jsonb_to_tsvector('simple'::regconfig, ("values" - '{__respondentKey,__respondentUserId,__respondentIpHash,__respondentSignals,__respondentAt}'::text[]), '["string", "numeric"]'::jsonb), 'B'::"char")) stored`,
    lazy: true,
    hidden: true,
    nullable: true,
  })
  searchVector?: unknown;
}
