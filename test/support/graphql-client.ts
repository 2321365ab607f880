import { GraphQLClient } from 'graphql-request';
import { getSdk, type Sdk } from '../generated/graphql-client.js';

export type { Sdk } from '../generated/graphql-client.js';

const SESSION_COOKIE = 'lp_session';

/**
 * The generated, typed GraphQL SDK against a running service (`baseUrl + '/graphql'`). `cookie` is a
 * `lp_session=…` pair to start signed in; like a browser, the client then keeps the session cookie the
 * server sets (register, login) and forgets it when the server clears it (logout).
 */
export function graphqlSdk(baseUrl: string, cookie?: string): Sdk {
  let session = cookie;
  const headers = (): Record<string, string> => (session ? { cookie: session } : {});
  const keepSessionCookie: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    for (const c of response.headers.getSetCookie()) {
      const pair = c.split(';')[0];
      if (pair.startsWith(`${SESSION_COOKIE}=`)) session = pair.endsWith('=') ? undefined : pair;
    }
    return response;
  };
  return getSdk(new GraphQLClient(`${baseUrl}/graphql`, { headers, fetch: keepSessionCookie }));
}
