import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { AccessDeniedError, InvalidGrantError, InvalidRequestError, InvalidScopeError, InvalidTargetError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AppDeps } from '../../core/context.js';
import { AuthService, type StartedSession } from '../../accounts/auth.service.js';
import { TwoFactorService } from '../../accounts/two-factor/two-factor.service.js';
import type { SessionMeta } from '../../accounts/sign-in/start-session.js';
import { authenticateSession } from '../../accounts/session-auth.js';
import { SESSION_COOKIE } from '../../accounts/session-token.js';
import { hasFeature } from '../../accounts/subscription.js';
import { AppError, SecondFactorRequiredError, ValidationError } from '../../core/errors.js';
import type { FormCsrf } from '../../http/form-csrf.js';
import type { SessionLimiters } from '../../http/rate-limits.js';
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthConnection } from './oauth-connection.entity.js';
import { OAuthCode, OAuthToken } from './oauth-grant.entity.js';
import { ACCESS_TOKEN_TTL_SECONDS, AUTHORIZATION_CODE_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, hashSecret, newSecret } from './oauth-secrets.js';
import { connectionStanding, deleteUnapprovedClients, recordConnectionUse, tokenByHash, type TokenRow } from './oauth.queries.js';
import { ALL_SCOPES, allows, consentDefaults, isScope, normalizeScopes, SCOPE_AREAS, type Scope } from '../scopes/connector-scopes.js';
import { consentedGrant } from './consent-form.js';
import { AUTHORIZE_FIELDS, consentPage, secondFactorPage, signInPage, type AuthorizeRequest } from './consent-pages.js';
import { detach } from '../../core/scheduled-work.js';

const CONNECTOR_FEATURE = 'assistant_connector';

/** The serialized URL without a fragment or one trailing slash (how RFC 8707 resources are compared). */
/** Where a session opened through the connector's sign-in comes from (the sessions list shows it). */
function sessionMetaOfRequest(req: Request): SessionMeta {
  return { userAgent: req.get('user-agent'), ip: req.ip };
}

/** A registered client nobody has approved is removed this many hours after its registration. */
export const UNAPPROVED_CLIENT_HOURS = 24;

function comparable(value: string | URL): string {
  const text = String(value);
  const hash = text.indexOf('#');
  return (hash === -1 ? text : text.slice(0, hash)).replace(/\/$/, '');
}

/** A grant's result, decided in a transaction; a family to revoke is revoked after it (so the refusal does not undo it). */
type GrantOutcome = { error: string; revokeFamily?: string; invalidScope?: boolean } | { tokens: OAuthTokens };

/** `lastUsedAt` of a connection is written at most this often. */
const LAST_USED_DEBOUNCE_MS = 60_000;

/**
 * The registered clients, in PostgreSQL. The SDK compares a presented client secret with the stored
 * `client_secret` as strings: we hand it the stored hash, and `hashPresentedClientSecret` (in front of
 * /token and /revoke) replaces the presented secret by its hash, so the secret itself is never stored.
 */
export class PgClientsStore implements OAuthRegisteredClientsStore {
  constructor(private readonly deps: AppDeps) {}

  async getClient(clientId: string): Promise<OAuthClientInformationFull | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(clientId)) return undefined;
    const row = await this.deps.orm.em.fork().findOne(OAuthClient, { id: clientId });
    if (!row) return undefined;
    return {
      ...(row.metadata as unknown as OAuthClientInformationFull),
      client_id: row.id,
      client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
      ...(row.clientSecretHash
        ? { client_secret: row.clientSecretHash, client_secret_expires_at: row.clientSecretExpiresAt ? Math.floor(row.clientSecretExpiresAt.getTime() / 1000) : 0 }
        : {}),
    };
  }

  async registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>): Promise<OAuthClientInformationFull> {
    const full = client as OAuthClientInformationFull;
    const { client_secret, client_secret_expires_at, client_id, client_id_issued_at, ...metadata } = full;
    const em = this.deps.orm.em.fork();
    // Unused clients expire: one nobody approved within a day of registering is removed (each
    // registration sweeps them, so their number stays bounded by the registration limit).
    await deleteUnapprovedClients(em, UNAPPROVED_CLIENT_HOURS);
    const id = client_id && /^[0-9a-f-]{36}$/i.test(client_id) ? client_id : randomUUID();
    const row = em.create(OAuthClient, {
      id,
      clientSecretHash: client_secret ? hashSecret(client_secret) : null,
      clientSecretExpiresAt: client_secret && client_secret_expires_at ? new Date(client_secret_expires_at * 1000) : null,
      clientName: typeof metadata.client_name === 'string' ? metadata.client_name.slice(0, 200) : null,
      metadata: metadata as Record<string, unknown>,
    });
    await em.flush();
    // The secret is answered this once, in clear; only its hash stays.
    return { ...full, client_id: row.id, client_id_issued_at: client_id_issued_at ?? Math.floor(row.createdAt.getTime() / 1000) };
  }
}

export interface ConnectorProviderOptions {
  deps: AppDeps;
  /** The `/mcp` resource URL (BASE_URL is known only once the server listens). */
  resource: () => string;
  csrf: FormCsrf;
  limiters: SessionLimiters | null;
}

/**
 * Our authorization server behind the SDK's router: consent pages, codes and tokens in PostgreSQL,
 * everything stored hashed. The router checks client ids, registered redirect URIs and PKCE S256;
 * this class checks the rest (single-use, expiring codes bound to client and redirect URI, token
 * rotation and family revocation, the resource, the user's plan and the connection's state).
 */
export class ConnectorOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: PgClientsStore;

  constructor(private readonly options: ConnectorProviderOptions) {
    this.clientsStore = new PgClientsStore(options.deps);
  }

  private get deps(): AppDeps {
    return this.options.deps;
  }

  private checkResource(resource: URL | undefined): void {
    if (resource && comparable(resource) !== comparable(this.options.resource())) {
      throw new InvalidTargetError(`This server issues tokens only for ${this.options.resource()}`);
    }
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const req = res.req as Request;
    this.checkResource(params.resource);
    const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
    const request: AuthorizeRequest = {};
    for (const field of AUTHORIZE_FIELDS) if (typeof source[field] === 'string') request[field] = source[field] as string;
    const clientName = client.client_name || client.client_id;
    const em = this.deps.orm.em.fork();
    const auth = await authenticateSession(em, this.deps.sessionTokens, (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE]);
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");

    if (!auth) {
      if (req.method === 'POST' && source.form === 'sign-in') {
        await this.signIn(req, res, em, request, clientName, source);
        return;
      }
      if (req.method === 'POST' && source.form === 'second-factor') {
        await this.secondFactor(req, res, em, request, clientName, source);
        return;
      }
      res.status(200).type('html').send(signInPage({ clientName, request, csrf: this.options.csrf.token(req, res) }));
      return;
    }
    if (!hasFeature(auth.user, CONNECTOR_FEATURE)) {
      throw new AccessDeniedError('The assistant connector needs a plan that includes it (pro)');
    }
    const consentInput = {
      clientName,
      clientUri: client.client_uri,
      redirectUri: params.redirectUri,
      email: auth.user.email,
      request,
      csrf: this.options.csrf.token(req, res),
      // What the client asked for pre-ticks the form (everything when it named nothing); the person decides.
      defaults: params.scopes?.length ? consentDefaults(params.scopes) : { areas: [...SCOPE_AREAS], access: 'write' as const },
    };
    if (req.method === 'POST' && source.decision !== undefined) {
      if (source.decision === 'deny') {
        res.redirect(302, this.redirectWith(params.redirectUri, { error: 'access_denied', error_description: 'The user denied access', state: params.state }));
        return;
      }
      if (source.decision !== 'approve') throw new InvalidRequestError('decision must be approve or deny');
      const grant = consentedGrant(source);
      if (!grant.length) {
        res.status(400).type('html').send(consentPage({ ...consentInput, error: 'Tick at least one area, or deny' }));
        return;
      }
      const code = await this.issueCode(em, auth.user.id, client, clientName, params, grant);
      res.redirect(302, this.redirectWith(params.redirectUri, { code, state: params.state }));
      return;
    }
    res.status(200).type('html').send(consentPage(consentInput));
  }

  /** The sign-in form's POST: counted like the auth routes; success sets the session and returns to GET /authorize. */
  private async signIn(req: Request, res: Response, em: EntityManager, request: AuthorizeRequest, clientName: string, source: Record<string, unknown>): Promise<void> {
    const again = (status: number, error: string) =>
      res.status(status).type('html').send(signInPage({ clientName, request, csrf: this.options.csrf.token(req, res), error, email: typeof source.email === 'string' ? source.email : '' }));
    const hit = await this.options.limiters?.hitAuth(req.ip);
    if (hit?.limited) {
      res.setHeader('Retry-After', String(hit.retryAfterSeconds));
      again(429, hit.message);
      return;
    }
    const email = typeof source.email === 'string' ? source.email : '';
    const password = typeof source.password === 'string' ? source.password : '';
    if (!email || !password) return void again(400, 'Enter your email and password');
    try {
      this.setSessionCookie(res, await new AuthService(em, this.deps, sessionMetaOfRequest(req)).login(email, password));
    } catch (error) {
      // Two-factor: no session yet; the second page asks for the code of the step the password opened.
      if (error instanceof SecondFactorRequiredError) {
        const challengeToken = String(error.details?.challengeToken);
        return void res.status(200).type('html').send(secondFactorPage({ clientName, request, csrf: this.options.csrf.token(req, res), challengeToken }));
      }
      if (error instanceof AppError) return void again(error.status, error.message);
      throw error;
    }
    res.redirect(303, `/authorize?${new URLSearchParams(request as Record<string, string>).toString()}`);
  }

  /**
   * The second page's POST (an authenticator or recovery code for the step's token): counted like the
   * auth routes; only success sets the session and returns to GET /authorize. A dead step (expired,
   * used, five wrong codes) goes back to the password.
   */
  private async secondFactor(req: Request, res: Response, em: EntityManager, request: AuthorizeRequest, clientName: string, source: Record<string, unknown>): Promise<void> {
    const challengeToken = typeof source.challengeToken === 'string' ? source.challengeToken : '';
    const again = (status: number, error: string) =>
      res.status(status).type('html').send(secondFactorPage({ clientName, request, csrf: this.options.csrf.token(req, res), challengeToken, error }));
    const hit = await this.options.limiters?.hitAuth(req.ip);
    if (hit?.limited) {
      res.setHeader('Retry-After', String(hit.retryAfterSeconds));
      again(429, hit.message);
      return;
    }
    const code = typeof source.code === 'string' ? source.code.trim() : '';
    if (!code) return void again(400, 'Enter the code of your authenticator app, or a recovery code');
    const totp = /^\d{6}$/.test(code.replace(/\s+/g, ''));
    try {
      const session = await new TwoFactorService(em, this.deps, sessionMetaOfRequest(req)).completeSignIn(challengeToken, totp ? code : undefined, totp ? undefined : code);
      this.setSessionCookie(res, session);
    } catch (error) {
      if (error instanceof ValidationError) {
        return void res.status(400).type('html').send(signInPage({ clientName, request, csrf: this.options.csrf.token(req, res), error: 'This sign-in expired or had too many wrong codes: sign in again' }));
      }
      if (error instanceof AppError) {
        if (typeof error.details?.retryAfterSeconds === 'number') res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
        const left = error.details?.attemptsLeft;
        return void again(error.status, typeof left === 'number' ? `${error.message} (${left} ${left === 1 ? 'try' : 'tries'} left)` : error.message);
      }
      throw error;
    }
    res.redirect(303, `/authorize?${new URLSearchParams(request as Record<string, string>).toString()}`);
  }

  private setSessionCookie(res: Response, session: StartedSession): void {
    res.cookie(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.deps.config.baseUrl.startsWith('https:'),
      path: '/',
      maxAge: session.expiresAt.getTime() - Date.now(),
    });
  }

  private redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries(values)) if (value !== undefined) url.searchParams.set(key, value);
    return url.href;
  }

  private async issueCode(em: EntityManager, userId: string, client: OAuthClientInformationFull, clientName: string, params: AuthorizationParams, grant: Scope[]): Promise<string> {
    const code = newSecret('lpac_');
    await em.transactional(async (tx) => {
      let connection = await tx.findOne(OAuthConnection, { userId, clientId: client.client_id, revokedAt: null }, { orderBy: { createdAt: 'desc' } });
      connection ??= tx.create(OAuthConnection, { userId, clientId: client.client_id, clientName: clientName.slice(0, 200), scopes: grant });
      // A new consent replaces the connection's grant (tokens issued before are held to it at once).
      connection.scopes = grant;
      tx.create(OAuthCode, {
        codeHash: code.hash,
        connectionId: connection.id,
        clientId: client.client_id,
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        resource: this.options.resource(),
        familyId: randomUUID(),
        scopes: grant,
        expiresAt: new Date(Date.now() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
      });
    });
    return code.value;
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    const row = await this.deps.orm.em.fork().findOne(OAuthCode, { codeHash: hashSecret(authorizationCode) });
    if (!row || row.clientId !== client.client_id) throw new InvalidGrantError('Invalid authorization code');
    return row.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string, _codeVerifier?: string, redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    this.checkResource(resource);
    const em = this.deps.orm.em.fork();
    const outcome = await em.transactional(async (tx): Promise<GrantOutcome> => {
      const code = await tx.findOne(OAuthCode, { codeHash: hashSecret(authorizationCode) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!code || code.clientId !== client.client_id) return { error: 'Invalid authorization code' };
      // A second use: the code leaked; what its first use issued is revoked (OAuth 2.1 §4.1.3).
      if (code.usedAt) return { error: 'Authorization code was already used', revokeFamily: code.familyId };
      if (code.expiresAt.getTime() <= Date.now()) return { error: 'Authorization code expired' };
      if (redirectUri !== undefined && redirectUri !== code.redirectUri) return { error: 'redirect_uri does not match the authorization request' };
      code.usedAt = new Date();
      const refused = await this.refusal(tx, code.connectionId);
      if (refused) return { error: refused };
      return { tokens: this.issueTokens(tx, code.connectionId, client.client_id, code.familyId, code.scopes) };
    });
    if ('error' in outcome) {
      if (outcome.revokeFamily) await this.revokeFamily(em, outcome.revokeFamily);
      throw new InvalidGrantError(outcome.error);
    }
    return outcome.tokens;
  }

  /** A refresh may name fewer scopes than its token holds (never more: invalid_scope); the new tokens hold those. */
  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    this.checkResource(resource);
    const em = this.deps.orm.em.fork();
    const outcome = await em.transactional(async (tx): Promise<GrantOutcome> => {
      const token = await tx.findOne(OAuthToken, { tokenHash: hashSecret(refreshToken), kind: 'refresh' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!token || token.clientId !== client.client_id) return { error: 'Invalid refresh token' };
      // Reuse of a rotated refresh token: someone else holds a copy; the whole family ends.
      if (token.rotatedAt) return { error: 'Refresh token was already used; its grant is revoked', revokeFamily: token.familyId };
      if (token.revokedAt) return { error: 'Refresh token was revoked' };
      if (token.expiresAt.getTime() <= Date.now()) return { error: 'Refresh token expired' };
      const held = token.scopes ?? [...ALL_SCOPES];
      const beyond = (scopes ?? []).filter((scope) => !isScope(scope) || !allows(held, scope));
      if (beyond.length) return { error: `The refresh token does not hold ${beyond.join(' ')}`, invalidScope: true };
      const refused = await this.refusal(tx, token.connectionId);
      if (refused) return { error: refused };
      token.rotatedAt = new Date();
      return { tokens: this.issueTokens(tx, token.connectionId, client.client_id, token.familyId, scopes?.length ? normalizeScopes(scopes) : held) };
    });
    if ('error' in outcome) {
      if (outcome.revokeFamily) await this.revokeFamily(em, outcome.revokeFamily);
      if (outcome.invalidScope) throw new InvalidScopeError(outcome.error);
      throw new InvalidGrantError(outcome.error);
    }
    return outcome.tokens;
  }

  /** Why a connection may not get tokens any more (revoked, or its user's plan lapsed), or null. */
  private async refusal(em: EntityManager, connectionId: string): Promise<string | null> {
    const row = await connectionStanding(em, connectionId);
    if (!row || row.revoked_at) return 'The connection was revoked';
    if (!hasFeature({ plan: row.plan, planExpiresAt: row.plan_expires_at ? new Date(row.plan_expires_at) : null }, CONNECTOR_FEATURE)) {
      return 'The assistant connector needs a plan that includes it';
    }
    return null;
  }

  private issueTokens(em: EntityManager, connectionId: string, clientId: string, familyId: string, scopes: string[]): OAuthTokens {
    const access = newSecret('lpat_');
    const refresh = newSecret('lprt_');
    const now = Date.now();
    const resource = this.options.resource();
    em.create(OAuthToken, { tokenHash: access.hash, kind: 'access', connectionId, clientId, familyId, resource, scopes, expiresAt: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000) });
    em.create(OAuthToken, { tokenHash: refresh.hash, kind: 'refresh', connectionId, clientId, familyId, resource, scopes, expiresAt: new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000) });
    return { access_token: access.value, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh.value, scope: scopes.join(' ') };
  }

  private async revokeFamily(em: EntityManager, familyId: string): Promise<void> {
    await em.nativeUpdate(OAuthToken, { familyId, revokedAt: null }, { revokedAt: new Date() });
  }

  /**
   * One indexed lookup by the token's hash, joined with its connection and the user's plan; nothing is
   * cached, so a revocation or a lapsed plan takes effect on the next request.
   */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const row = await tokenByHash(this.deps.orm.em, hashSecret(token));
    if (!row || row.kind !== 'access') throw new InvalidTokenError('Unknown access token');
    if (row.revoked_at || row.connection_revoked_at) throw new InvalidTokenError('The access token was revoked');
    const expiresAt = new Date(row.expires_at).getTime();
    if (expiresAt <= Date.now()) throw new InvalidTokenError('The access token expired');
    const owner = { plan: row.plan, planExpiresAt: row.plan_expires_at ? new Date(row.plan_expires_at) : null };
    if (!hasFeature(owner, CONNECTOR_FEATURE)) throw new InvalidTokenError('The assistant connector needs a plan that includes it');
    this.touch(row);
    return {
      token,
      clientId: row.client_id,
      // What this call may do: the token's scopes, held to the connection's grant as it is now.
      scopes: (row.scopes ?? [...ALL_SCOPES]).filter((scope) => isScope(scope) && allows(row.connection_scopes, scope)),
      expiresAt: Math.floor(expiresAt / 1000),
      resource: new URL(row.resource),
      extra: { userId: row.user_id, connectionId: row.connection_id },
    };
  }

  private touch(row: TokenRow): void {
    const last = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
    if (Date.now() - last < LAST_USED_DEBOUNCE_MS) return;
    // Not awaited by the call (detached: a later request's statement count must not catch it).
    detach(() => recordConnectionUse(this.deps.orm.em, row.connection_id))
      .catch((error: unknown) => this.deps.logger.warn({ err: error, connectionId: row.connection_id }, 'could not record connection use'));
  }

  /** RFC 7009: an unknown token is not an error. Revoking a refresh token ends its whole family. */
  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    const em = this.deps.orm.em.fork();
    const row = await em.findOne(OAuthToken, { tokenHash: hashSecret(request.token), clientId: client.client_id });
    if (!row) return;
    if (row.kind === 'refresh') await this.revokeFamily(em, row.familyId);
    else await em.nativeUpdate(OAuthToken, { id: row.id, revokedAt: null }, { revokedAt: new Date() });
  }
}
