import type { Logger } from '../src/core/logger.js';
import type { RequestFacts } from './request-checks.js';
import type { BodyRead } from './request-body.js';
import { replays, type Replay } from './route-execution.js';
import { errorAnswer, type RestAnswer } from './rest-answer.js';
import type { ServerContext } from './server-context.js';

/**
 * Both REST paths compared on every request the test suite sends (rest/sofa-surface.ts; on in every test
 * app, test/support/test-app.ts). The direct path answers first; then Sofa's path handles the same
 * request (same context, so no second session read) with the execution replayed: Sofa's execute is
 * handed what the direct path's executor returned, after checking that Sofa asked for the same document,
 * operation and variables (rest/route-execution.ts), so nothing runs twice. The two answers must agree on
 * status, content type, Allow and the body's bytes; when they do not, the client gets a 500 naming the
 * differences (the test that sent it fails) and the check records it.
 */

export interface PathComparison {
  /** `Type.field` of the route, when the request matched one and passed its checks. */
  operation?: string;
  method: string;
  /** The path without the query. */
  path: string;
  status: number;
  differences: string[];
}

export interface RestPathCheck {
  record(comparison: PathComparison): void;
}

/** Sent by a test to have a request answered on Sofa's path only (honoured only with a path check). */
export const FORCE_SOFA_PATH_HEADER = 'x-lp-rest-path';

/** The headers an answer sets itself that the comparison reads (framing headers are each path's own). */
const COMPARED_HEADERS = ['content-type', 'allow'];

async function answerOf(response: Response): Promise<RestAnswer> {
  const headers: Record<string, string> = {};
  for (const name of COMPARED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body: await response.text() };
}

/** What differs between the direct answer and Sofa's (empty when they agree). */
export function answerDifferences(direct: RestAnswer, sofa: RestAnswer): string[] {
  const differences: string[] = [];
  if (direct.status !== sofa.status) differences.push(`status ${direct.status} / ${sofa.status}`);
  for (const name of COMPARED_HEADERS) {
    const a = direct.headers[name] ?? null;
    const b = sofa.headers[name] ?? null;
    if (a !== b) differences.push(`${name} ${String(a)} / ${String(b)}`);
  }
  if (direct.body !== sofa.body) differences.push(`body ${direct.body.slice(0, 500)} / ${sofa.body.slice(0, 500)}`);
  return differences;
}

/**
 * A WHATWG request carrying what the direct path read: Express's headers and the body text (for a body
 * refused as too large, one byte over the limit, for Sofa's path to refuse too).
 */
function sofaRequest(facts: RequestFacts, body: BodyRead | undefined, req: ServerContext['req']): Request {
  const bodyText = !body ? '' : body.ok ? body.text : ' '.repeat((body.limit ?? 0) + 1);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const hasBody = facts.method !== 'GET' && facts.method !== 'HEAD' && bodyText !== '';
  return new Request(facts.url.href, { method: facts.method, headers, body: hasBody ? bodyText : undefined });
}

/** What the direct path answered for a request, and what it ran. */
export interface DirectOutcome {
  facts: RequestFacts;
  server: ServerContext;
  answer: RestAnswer;
  /** The route's operation, once the request passed the checks. */
  operation?: string;
  /** The body as the direct path read it (undefined when the checks refused before reading it). */
  body?: BodyRead;
  /** The execution Sofa's path is to replay, keyed by the request's context. */
  replay?: { context: object; replay: Replay };
}

/** Runs Sofa's path on the same request and answers the direct answer, or a 500 naming the differences. */
export async function compareWithSofa(check: RestPathCheck, direct: DirectOutcome, sofaHandle: (request: Request, server: ServerContext) => Promise<Response>, logger: Logger): Promise<RestAnswer> {
  const { facts, server, answer, operation } = direct;
  let differences: string[];
  try {
    const response = await sofaHandle(sofaRequest(facts, direct.body, server.req), server);
    differences = answerDifferences(answer, await answerOf(response));
  } catch (error) {
    differences = [`Sofa's path threw: ${(error as Error)?.message ?? String(error)}`];
  }
  if (direct.replay) {
    const { context, replay } = direct.replay;
    if (replay.mismatch) differences.push(replay.mismatch);
    if (replays.get(context) === replay) {
      replays.delete(context);
      differences.push("Sofa's path did not execute the operation the direct path executed");
    }
  }
  check.record({ operation, method: facts.method, path: facts.url.pathname, status: answer.status, differences });
  if (!differences.length) return answer;
  logger.error({ differences, method: facts.method, path: facts.url.pathname }, 'REST paths differ');
  return errorAnswer({ status: 500, code: 'INTERNAL_ERROR', message: `REST direct path and Sofa path differ: ${differences.join('; ')}` });
}
