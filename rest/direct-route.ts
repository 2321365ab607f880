import { getOperationAST, Kind, OperationTypeNode, type DocumentNode, type ExecutionResult, type GraphQLSchema, type VariableDefinitionNode } from 'graphql';
import { buildOperationNodeForField, createGraphQLError } from '@graphql-tools/utils';
import type { AppContext } from '../src/core/context.js';
import type { RouteTable } from './route-table.js';
import { sofaVariables } from './sofa-variables.js';
import { executeRoute, nullsByContext, type Replay } from './route-execution.js';
import { SUCCESS_CONTENT_TYPE, type RestAnswer } from './rest-answer.js';

/** What Sofa's router knows of its routes: the models and depth its documents are built with. */
export interface SofaModels {
  schema: GraphQLSchema;
  models: string[];
  ignore: string[];
  depthLimit: number;
}

/** A route's operation, ready to run without Sofa's router. */
export interface RouteOperation {
  /** The root field, whose value is the answer. */
  field: string;
  /** The document that runs: the route's shaped one, or Sofa's own. */
  document: DocumentNode;
  /** Sofa's operation name (`<field>_<query|mutation>`). */
  operationName: string;
  /** The variables of Sofa's own document, which Sofa reads from the request. */
  definitions: readonly VariableDefinitionNode[];
  status: number;
}

/**
 * Each route's operation, built the way Sofa's router builds it (the same builder, models and depth),
 * running the document the route declares (shaped or narrowed to its fields, rest/answer-shape.ts).
 */
export function routeOperations(
  sofa: SofaModels,
  routes: RouteTable,
  documentFor: (operationName: string, sofaDocument: DocumentNode) => DocumentNode,
): Map<string, RouteOperation> {
  const operations = new Map<string, RouteOperation>();
  for (const [operation, route] of Object.entries(routes)) {
    const [typeName, field] = operation.split('.') as [string, string];
    const node = buildOperationNodeForField({
      kind: typeName === 'Mutation' ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY,
      schema: sofa.schema,
      field,
      models: sofa.models,
      ignore: sofa.ignore,
      circularReferenceDepth: sofa.depthLimit,
    });
    const own: DocumentNode = { kind: Kind.DOCUMENT, definitions: [node] };
    const operationName = node.name!.value;
    operations.set(operation, {
      field,
      document: documentFor(operationName, own),
      operationName,
      definitions: getOperationAST(own)?.variableDefinitions ?? [],
      status: route.responseStatus ?? 200,
    });
  }
  return operations;
}

export interface DirectRun {
  schema: GraphQLSchema;
  operation: RouteOperation;
  context: AppContext;
  params: Record<string, string>;
  /** The query string as Sofa reads it (the fetch adapter's URL, after `?`). */
  search: string | undefined;
  body: Record<string, unknown>;
  nulls: ReadonlySet<string>;
  /** Sofa's error handler: the envelope of the first error. */
  errorAnswer(errors: readonly unknown[]): RestAnswer;
  /** Given what ran, when both paths are compared (rest/path-comparison.ts). */
  onExecuted?(replay: Replay): void;
}

/**
 * Runs a checked route as Sofa's route handler does (sofa-api router.js `useHandler`): its variables
 * read from the request, the one executor, the answer `data[field]` with the route's status or the
 * envelope of the first error; a failure to read a variable is a 400.
 */
export async function runDirect(run: DirectRun): Promise<RestAnswer> {
  let variableValues: Record<string, unknown>;
  try {
    variableValues = sofaVariables(run.schema, run.operation.definitions, run);
  } catch (error) {
    const message = (error as Error)?.message || String(error);
    return run.errorAnswer([createGraphQLError(message, { extensions: { http: { status: 400 } } })]);
  }
  try {
    nullsByContext.set(run.context, run.nulls);
    const { document, operationName, field } = run.operation;
    let executed: ExecutionResult | undefined;
    const result = await executeRoute({ schema: run.schema, document, contextValue: run.context, variableValues, operationName }, (r) => (executed = r));
    if (executed && run.onExecuted) run.onExecuted({ document, operationName, variableValues, result: executed });
    if (result.errors) return run.errorAnswer(result.errors);
    return { status: run.operation.status, headers: { 'content-type': SUCCESS_CONTENT_TYPE }, body: JSON.stringify(result.data?.[field]) };
  } catch (error) {
    return run.errorAnswer([error]);
  }
}
