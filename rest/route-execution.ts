import { getOperationAST, print, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isDeepStrictEqual } from 'node:util';
import { executeWithinLimits } from '../src/graphql/limited-execution.js';
import { successEnvelope } from '../src/http/envelope.js';
import { etagByContext, etagOfResult, ifMatchByContext, withIfMatch } from './record-versions.js';

type MaybePromise<T> = Promise<T> | T;

/**
 * Explicit body nulls by context (rest/request-checks.ts `bodyNulls`): `executeRoute` puts them back as
 * `null` variables, where Sofa's variable reading left them out.
 */
export const nullsByContext = new WeakMap<object, ReadonlySet<string>>();

/**
 * Sofa answers `data[field]` as the JSON body of a success: putting the documented envelope there (a
 * page `{ items, meta }` becomes `data` + `meta`) has the final body serialised once, instead of the
 * edge parsing or re-wrapping the answer's text.
 */
function enveloped(result: ExecutionResult): ExecutionResult {
  if (result.errors || !result.data) return result;
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(result.data)) data[field] = successEnvelope(value);
  return { ...result, data };
}

/**
 * An execution the comparison of both paths (rest/path-comparison.ts) replays on Sofa's path instead of
 * running the operation twice: what the direct path ran, and its result.
 */
export interface Replay {
  document: DocumentNode;
  operationName: string;
  variableValues: Record<string, unknown>;
  result: ExecutionResult;
  /** Set when Sofa's path asked for a different execution (then the answers are reported as differing). */
  mismatch?: string;
}

/** Replays by context (only while both paths are compared). */
export const replays = new WeakMap<object, Replay>();

const printed = new WeakMap<DocumentNode, string>();
function printedOf(document: DocumentNode): string {
  let text = printed.get(document);
  if (text === undefined) printed.set(document, (text = print(document)));
  return text;
}

function replayed(replay: Replay, args: ExecutionArgs): ExecutionResult {
  if (printedOf(replay.document) !== printedOf(args.document)) replay.mismatch = `documents differ:\n${printedOf(replay.document)}\n---\n${printedOf(args.document)}`;
  else if (replay.operationName !== args.operationName) replay.mismatch = `operation names differ: ${replay.operationName} / ${String(args.operationName)}`;
  else if (!isDeepStrictEqual(replay.variableValues, args.variableValues ?? {})) {
    replay.mismatch = `variables differ: ${JSON.stringify(replay.variableValues)} / ${JSON.stringify(args.variableValues)}`;
  }
  replays.delete(args.contextValue as object);
  return replay.result;
}

/**
 * A route's execute, on either path: the one executor with its limits (src/graphql/limited-execution.ts),
 * with `null` added for each operation variable the body set to null and If-Match as `expectedVersion`
 * (rest/record-versions.ts), answering the envelope and noting the record's ETag. `args` carries the
 * variables as Sofa reads them; `onResult` sees the executor's own result.
 */
export function executeRoute(args: ExecutionArgs, onResult?: (result: ExecutionResult) => void): MaybePromise<ExecutionResult> {
  const context = args.contextValue && typeof args.contextValue === 'object' ? args.contextValue : undefined;
  const replay = context ? replays.get(context) : undefined;
  if (replay) return enveloped(replayed(replay, args));
  const nulls = context ? nullsByContext.get(context) : undefined;
  let variableValues = args.variableValues;
  if (nulls?.size) {
    const withNulls: Record<string, unknown> = { ...variableValues };
    for (const definition of getOperationAST(args.document, args.operationName)?.variableDefinitions ?? []) {
      const name = definition.variable.name.value;
      if (nulls.has(name) && withNulls[name] === undefined) withNulls[name] = null;
    }
    variableValues = withNulls;
  }
  const ifMatch = context ? ifMatchByContext.get(context) : undefined;
  if (ifMatch !== undefined) {
    const guarded = withIfMatch(args.document, args.operationName, variableValues, ifMatch);
    if (guarded instanceof Error) {
      const refused: ExecutionResult = { errors: [guarded] };
      onResult?.(refused);
      return refused;
    }
    variableValues = guarded;
  }
  const noted = (r: ExecutionResult) => {
    const etag = context ? etagOfResult(r) : undefined;
    if (etag) etagByContext.set(context!, etag);
    onResult?.(r);
  };
  // The same limits as /graphql (a route's document is fixed; its variables set the page size).
  const result = executeWithinLimits({ ...args, variableValues });
  if (result instanceof Promise) {
    return result.then((r) => {
      noted(r);
      return enveloped(r);
    });
  }
  noted(result);
  return enveloped(result);
}
