import { getOperationAST, type DocumentNode, type ExecutionResult, type GraphQLError } from 'graphql';
import { createGraphQLError } from '@graphql-tools/utils';
import { VersionConflictError } from '../src/core/errors.js';

/**
 * Lost-update protection on REST (issue 38, docs/concurrency.md), for every route of every surface:
 * a request's `If-Match` becomes the operation's `expectedVersion` argument (the service layer checks
 * it, src/core/database/expected-version.ts), and an answer that is one versioned record, or a
 * VERSION_CONFLICT carrying one, gets its `ETag`.
 *
 * The ETag is the record's version as a strong tag, `"<version>"`: the path names the record, so the
 * number is enough. A weak `W/"<version>"` is taken as the same version (proxies weaken tags when they
 * compress); `*` asks for no version check.
 */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/** If-Match by request context, set by the surface (rest/sofa-surface.ts) before the operation runs. */
export const ifMatchByContext = new WeakMap<object, string>();
/** The ETag an execution answered, by request context, for the surface to send. */
export const etagByContext = new WeakMap<object, string>();

const VERSION_TAG = /^\s*(?:W\/)?"(\d{1,9})"\s*$/;

/** The version an If-Match asks for: a number, undefined for `*`, or an error for anything else. */
export function versionOfIfMatch(header: string): number | undefined | GraphQLError {
  if (header.trim() === '*') return undefined;
  const tag = VERSION_TAG.exec(header);
  const version = tag ? Number(tag[1]) : 0;
  if (version >= 1) return version;
  return createGraphQLError('If-Match must be one ETag this API answered, e.g. "3" (a list of tags is not taken)', { extensions: { http: { status: 400 } } });
}

/**
 * The variables with If-Match as `expectedVersion`, or the refusal: an If-Match on a write that takes no
 * version is refused (400) rather than ignored, so a client never believes a write was guarded when it
 * was not; on a read it is ignored.
 */
export function withIfMatch(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  ifMatch: string,
): Record<string, unknown> | null | undefined | GraphQLError {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== 'mutation') return variables;
  const version = versionOfIfMatch(ifMatch);
  if (version instanceof Error) return version;
  const takesVersion = operation.variableDefinitions?.some((definition) => definition.variable.name.value === 'expectedVersion');
  if (!takesVersion) {
    return createGraphQLError('This route takes no If-Match: its record has no version (docs/concurrency.md)', { extensions: { http: { status: 400 } } });
  }
  if (version === undefined) return variables;
  return { ...variables, expectedVersion: version };
}

/** The ETag of an answer: its root field's record when it has a version, or the conflicting one's. */
export function etagOfResult(result: ExecutionResult): string | undefined {
  const conflict = result.errors?.map((error) => error.originalError).find((error) => error instanceof VersionConflictError);
  if (conflict) return etagOf((conflict.details as { version: number }).version);
  if (result.errors || !result.data) return undefined;
  const values = Object.values(result.data);
  const record = values.length === 1 ? values[0] : undefined;
  if (record && typeof record === 'object' && !Array.isArray(record)) {
    const { id, version } = record as { id?: unknown; version?: unknown };
    if (typeof id === 'string' && typeof version === 'number') return etagOf(version);
  }
  return undefined;
}
