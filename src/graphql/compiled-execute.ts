import { execute, getOperationAST, GraphQLError, Kind, OperationTypeNode, valueFromASTUntyped, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';

/*
 * Execution through graphql-jit: each operation is compiled once into a plain function (fields read and
 * serialised without graphql-js's generic walk), then run for every request of the same document.
 * graphql-js builds its work per request and per field; on a week read (≈1,500 fields) that walk was
 * the largest single cost after the database. Results and errors are the ones graphql-js gives.
 */

/** graphql-jit, loaded by the first operation rather than at start-up (issue 18). */
let jit: typeof import('graphql-jit') | undefined;
let loadingJit: Promise<void> | undefined;
const loadJit = () => (loadingJit ??= import('graphql-jit').then((module) => void (jit = module)));

interface Compiled {
  query: CompiledQuery;
  /** Variable defaults as a client would send them (graphql-jit ignores the default of a non-null variable). */
  defaults: [name: string, value: unknown][];
}

const compiledBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, Compiled | null>>>();

function compiled({ compileQuery, isCompiledQuery }: typeof import('graphql-jit'), schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined | null): Compiled | null {
  let byDocument = compiledBySchema.get(schema);
  if (!byDocument) compiledBySchema.set(schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  if (!byName) byDocument.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let query = byName.get(key);
  if (query === undefined) {
    const result = compileQuery(schema, document, operationName ?? undefined);
    const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
    const defaults = definitions.flatMap((d) => (d.defaultValue ? [[d.variable.name.value, valueFromASTUntyped(d.defaultValue)] as [string, unknown]] : []));
    // A document it cannot compile (an error graphql-js reports itself) runs through graphql-js.
    query = isCompiledQuery(result) ? { query: result, defaults } : null;
    byName.set(key, query);
  }
  return query;
}

/**
 * graphql-jit's errors leave `extensions` undefined where graphql-js always sets an object (Apollo
 * reads `extensions.code`): give them graphql-js's shape, keeping message, locations, path and cause.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const normalized = new GraphQLError(error.message, { path: error.path, originalError: error.originalError ?? undefined, extensions: error.extensions });
  if (error.locations) Object.assign(normalized, { locations: error.locations });
  return normalized;
}

function withGraphQLJsErrors(result: ExecutionResult): ExecutionResult {
  return result.errors?.length ? { ...result, errors: result.errors.map(asGraphQLJsError) } : result;
}

/**
 * A mutation selecting several root fields. graphql-js runs them one after another and stops at the
 * first that fails (its null reaches `data`); graphql-jit runs the later ones anyway, so a failed
 * operation could still sign in or write. Those run through graphql-js; a single mutation is compiled.
 */
function isSerialMutation(document: DocumentNode, operationName: string | undefined | null): boolean {
  const operation = getOperationAST(document, operationName);
  return operation?.operation === OperationTypeNode.MUTATION && (operation.selectionSet.selections.length > 1 || operation.selectionSet.selections[0]?.kind !== Kind.FIELD);
}

/**
 * Drop-in for graphql-js `execute` for queries, mutations and a subscription's events (documents are
 * cached by identity). No limits here: every caller goes through limited-execution.ts, which adds them.
 */
export function executeCompiled(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
  if (isSerialMutation(args.document, args.operationName)) return execute(args);
  if (!jit) return loadJit().then(() => executeCompiled(args));
  const compiledQuery = compiled(jit, args.schema, args.document, args.operationName);
  if (!compiledQuery) return execute(args);
  let variables = args.variableValues ?? {};
  // As graphql-js does: an omitted variable takes its default (a null one stays null).
  const omitted = compiledQuery.defaults.filter(([name]) => !Object.hasOwn(variables, name));
  if (omitted.length) variables = { ...Object.fromEntries(omitted), ...variables };
  const result = compiledQuery.query.query(args.rootValue, args.contextValue, variables);
  return result instanceof Promise ? result.then(withGraphQLJsErrors) : withGraphQLJsErrors(result);
}
