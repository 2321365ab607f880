import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { BaseEntity } from '../../core/database/base.entity.js';
import { DateTimeISO } from '../../core/scalars.js';
import { User } from '../../accounts/user.entity.js';
import { OAuthClient } from './oauth-client.entity.js';
import { ALL_SCOPES } from '../scopes/connector-scopes.js';

/**
 * A user's consent to one client: made at the first approval, reused by later ones. Every code and
 * token hangs off it, so revoking it (or deleting the user) ends them all at once.
 */
@ObjectType('AssistantConnection', { simpleResolvers: true, description: 'An assistant (OAuth client) the user allowed to use the connector.' })
@Entity({ tableName: 'oauth_connections' })
@Index({ properties: ['userId', 'clientId'] })
export class OAuthConnection extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', fieldName: 'user_id' })
  userId!: string;

  @Field(() => String, { description: 'The OAuth client_id.' })
  @ManyToOne(() => OAuthClient, { mapToPk: true, deleteRule: 'cascade', fieldName: 'client_id' })
  clientId!: string;

  @Field(() => String, { description: 'The name the client registered with (its client_id when it gave none).' })
  @Property({ type: 'string', length: 200 })
  clientName!: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'Last call to /mcp with one of its tokens (updated at most once a minute).' })
  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null = null;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null = null;

  /**
   * The person's grant (connector-scopes.ts): `<area>:read` / `<area>:write`. Connections made before
   * scopes existed were granted everything, and keep it.
   */
  @Field(() => [String], { description: 'What the assistant may do: `<area>:read` or `<area>:write` per area (planning, health, food, journal, people, projects, money); write includes read.' })
  @Property({ type: 'string[]', columnType: 'text[]', default: `{${ALL_SCOPES.join(',')}}` })
  scopes: string[] = [...ALL_SCOPES];
}
