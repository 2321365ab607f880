/** The parts of oidc-provider (a certified OpenID provider, a dev dependency for tests only) that the tests use. */
declare module 'oidc-provider' {
  interface KoaContext {
    path: string;
    body: unknown;
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients: Record<string, unknown>[];
    jwks: { keys: Record<string, unknown>[] };
    cookies: { keys: string[] };
    claims: Record<string, string[]>;
    features: Record<string, unknown>;
    pkce: { required: () => boolean };
    findAccount(ctx: KoaContext, id: string): Promise<Account | undefined>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
  }
}
