import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO, UUID } from '../../core/scalars.js';

@ObjectType({ simpleResolvers: true, description: 'A signed-in browser or device of the person.' })
export class AccountSession {
  @Field(() => ID)
  id!: string;

  @Field(() => DateTimeISO)
  createdAt!: Date;

  @Field(() => DateTimeISO, { nullable: true, description: 'Last request with this session, to the minute (null: not since this was recorded).' })
  lastUsedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'The User-Agent it signed in with (at most 255 characters).' })
  userAgent!: string | null;

  @Field(() => String, { nullable: true, description: 'The network it signed in from, not the address: IPv4 /24 or IPv6 /48, e.g. `203.0.113.0/24`.' })
  ipRange!: string | null;

  @Field(() => Boolean, { description: 'Whether this is the session making the request.' })
  current!: boolean;
}

@ArgsType()
export class SessionIdArgs {
  @Field(() => UUID)
  sessionId!: string;
}

@ObjectType({ simpleResolvers: true })
export class RevokedSessions {
  @Field(() => Int, { description: 'How many sessions were ended.' })
  revoked!: number;

  @Field(() => String)
  message!: string;
}
