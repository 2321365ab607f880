import { Entity, Index, ManyToOne, Property, type Opt } from '@mikro-orm/core';
import { User } from '../../accounts/user.entity.js';
import { BaseEntity } from '../../core/database/base.entity.js';
import type { PropertyDefinition } from './properties.js';

/** A small Notion-like database: typed properties; its rows are `BrainRecord`s. */
@Entity({ tableName: 'brain_database' })
@Index({ properties: ['userId', 'createdAt'] })
@Index({ name: 'brain_database_search_vector_index', expression: 'create index "brain_database_search_vector_index" on "brain_database" using gin ("search_vector")' })
export class BrainDatabase extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Property({ type: 'string', length: 200 })
  name!: string;

  @Property({ type: 'json', columnType: 'jsonb' })
  properties: Opt<PropertyDefinition[]> = [];

  /** Full-text vector kept by PostgreSQL: the name (A) and the property names (B). */
  @Property({
    type: 'unknown',
    columnType: 'tsvector',
    // Written as PostgreSQL prints it back, so the schema diff sees no change.
    generated: `(setweight(to_tsvector('simple'::regconfig, (COALESCE(name, ''::character varying))::text), 'A'::"char") || setweight(jsonb_to_tsvector('simple'::regconfig, jsonb_path_query_array(properties, '$[*]."name"'::jsonpath), '["string"]'::jsonb), 'B'::"char")) stored`,
    lazy: true,
    hidden: true,
    nullable: true,
  })
  searchVector?: unknown;
}
