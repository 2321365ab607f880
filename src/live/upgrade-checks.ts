import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Request } from 'express';
import type { Config } from '../core/config.js';
import { SESSION_COOKIE } from '../core/session-cookie.js';
import { allowedOrigins, crossOriginReason } from '../http/same-origin-writes.js';

/** The session cookie of an upgrade request (express's cookie parser never sees upgrades). */
export function sessionCookieOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Why a browser page of another origin may not open this socket, or null: the rule of cookie writes
 * (same-origin-writes.ts), since a socket carries the cookie and can read what it subscribes to.
 * A client that sends no Origin (a script, a native app) is not a page of another origin.
 */
export function upgradeOriginRefusal(req: IncomingMessage, config: Config): string | null {
  const forwarded = config.trustProxy ? String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim() : '';
  const protocol = forwarded || ((req.socket as TLSSocket).encrypted ? 'https' : 'http');
  return crossOriginReason({ headers: req.headers, protocol } as unknown as Request, allowedOrigins(config));
}
