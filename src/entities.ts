import { LoginSession } from './accounts/login-session.entity.js';
import { AuthToken } from './accounts/auth-token.entity.js';
import { User } from './accounts/user.entity.js';
import { BaseEntity } from './core/database/base.entity.js';
import { OutboxEvent } from './core/events/outbox-event.entity.js';

/** Every MikroORM entity; a new domain module adds its entities here. */
export const entities = [BaseEntity, User, LoginSession, AuthToken, OutboxEvent];
