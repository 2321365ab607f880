import { Property, type Opt } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { BaseEntity } from './base.entity.js';

/**
 * A record a client edits and may guard against lost updates (issue 38, docs/concurrency.md): its
 * `version` starts at 1 and goes up by one with every committed UPDATE of its row. The database's
 * BEFORE UPDATE trigger (`lp_bump_version`, Migration20261128200200RecordVersions) is what counts, so
 * raw-statement writers and bulk jobs bump it too; `onUpdate` only keeps the entity in memory in step
 * with it in the same UPDATE (no statement to read it back). Not MikroORM's `version: true`: that adds
 * `where version = ?` to every flush, so a plain write would start failing when another writer came first.
 */
@ObjectType({ simpleResolvers: true })
export abstract class VersionedEntity extends BaseEntity {
  @Field(() => Int, { description: 'Goes up with every change; send it back as `expectedVersion` (REST: `If-Match`) so a write fails instead of overwriting a newer change (docs/concurrency.md).' })
  @Property({ type: 'integer', default: 1, onUpdate: (record: VersionedEntity) => record.version + 1 })
  version: Opt<number> = 1;
}
