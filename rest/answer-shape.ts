import {
  getNamedType,
  isLeafType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { buildOperationNodeForField, type SelectedFields } from '@graphql-tools/utils';
import type { AnswerShape, RouteTable } from './route-table.js';

/**
 * Sofa's selection for a route: every leaf field (scalars, enums, lists of them) plus the relations the
 * shape names, each again with its leaf fields and only the relations named under it.
 */
function selectedFields(type: GraphQLObjectType, shape: AnswerShape, at: string): Record<string, SelectedFields> {
  const fields = type.getFields();
  const selected: Record<string, SelectedFields> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (isLeafType(getNamedType(field.type))) selected[name] = true;
  }
  for (const [name, nested] of Object.entries(shape)) {
    const named = fields[name] ? getNamedType(fields[name].type) : undefined;
    if (!named || !isObjectType(named)) throw new Error(`Answer shape of ${at} names ${type.name}.${name}, which is not a relation of ${type.name}`);
    selected[name] = selectedFields(named, nested === true ? {} : nested, at);
  }
  return selected;
}

/**
 * The selection a route with an `answer` shape runs: the object type its operation returns and the fields
 * selected on it. Shared by the documents below and the route's OpenAPI description (rest/session-openapi.ts),
 * so both follow the one shape.
 */
export function answerSelection(schema: GraphQLSchema, operation: string, shape: AnswerShape): { kind: OperationTypeNode; field: string; selection: Record<string, SelectedFields> } {
  const [typeName, fieldName] = operation.split('.') as [string, string];
  const kind = typeName === 'Mutation' ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY;
  const root = kind === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  const returned = root?.getFields()[fieldName] ? getNamedType(root.getFields()[fieldName]!.type) : undefined;
  if (!returned || !isObjectType(returned)) throw new Error(`Answer shape of ${operation}: the operation does not return an object type`);
  return { kind, field: fieldName, selection: selectedFields(returned, shape, operation) };
}

/**
 * The operation documents of the routes that declare an `answer` shape, by the operation name Sofa gives
 * the same route (`<field>_<query|mutation>`): built with the builder Sofa itself uses, so variables and
 * name are Sofa's and only the selection differs. Routes without a shape keep Sofa's own document (every
 * field reachable within the depth limit: `GET /days/:dayId` gets each relation `Day` has, today's and
 * those added later). Names that are not relations of their type stop the start.
 */
export function shapedDocuments(schema: GraphQLSchema, table: RouteTable, circularReferenceDepth: number): Map<string, DocumentNode> {
  const documents = new Map<string, DocumentNode>();
  for (const [operation, route] of Object.entries(table)) {
    if (!route.answer) continue;
    const { kind, field, selection } = answerSelection(schema, operation, route.answer);
    const node = buildOperationNodeForField({ schema, kind, field, circularReferenceDepth, selectedFields: selection });
    documents.set(node.name!.value, { kind: Kind.DOCUMENT, definitions: [node] });
  }
  return documents;
}
