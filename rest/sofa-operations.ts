import { Kind, OperationTypeNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { buildOperationNodeForField } from '@graphql-tools/utils';
import { createSofa } from 'sofa-api';
import { schemaForRoutes } from './prune-schema.js';
import { routeDocuments } from './answer-shape.js';
import type { RouteTable } from './route-table.js';
import { SOFA_DEPTH_LIMIT } from './sofa-surface.js';

/**
 * The fixed document each route of a table runs, built the way Sofa's router builds it (its own models
 * and depth) or, for a route with a declared answer shape, the shaped one the surface runs instead, each
 * narrowed to the route's answer fields (rest/answer-shape.ts), so the operation limits can be checked
 * against every route and the OpenAPI documents describe what it answers.
 */
export function sofaRouteOperations(schema: GraphQLSchema, routes: RouteTable): Map<string, DocumentNode> {
  const sofa = createSofa({ basePath: '/', schema: schemaForRoutes(schema, routes), depthLimit: SOFA_DEPTH_LIMIT });
  const documentFor = routeDocuments(sofa.schema, routes, SOFA_DEPTH_LIMIT);
  const documents = new Map<string, DocumentNode>();
  for (const operation of Object.keys(routes)) {
    const [typeName, field] = operation.split('.') as [string, string];
    const node = buildOperationNodeForField({
      kind: typeName === 'Mutation' ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY,
      schema: sofa.schema,
      field,
      models: sofa.models,
      ignore: sofa.ignore,
      circularReferenceDepth: sofa.depthLimit,
    });
    documents.set(operation, documentFor(node.name!.value, { kind: Kind.DOCUMENT, definitions: [node] }));
  }
  return documents;
}
