import type { Config } from '../../core/config.js';

export interface RelyingParty {
  /** The RP ID: BASE_URL's host name (credentials are scoped to it and its subdomains). */
  id: string;
  /** The one origin whose pages may create and use the passkeys: BASE_URL's. */
  origin: string;
  name: string;
}

/**
 * Read at each request, not at start-up: without BASE_URL the server sets `config.baseUrl` to
 * `http://localhost:<port>` only after it listens (src/app/server.ts). An IP address is not a valid RP
 * ID, hence localhost there; browsers treat http://localhost as a secure context.
 */
export function relyingParty(config: Config): RelyingParty {
  const base = new URL(config.baseUrl);
  return { id: base.hostname, origin: base.origin, name: 'Life Planner' };
}
