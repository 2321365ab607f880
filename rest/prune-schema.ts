import { GraphQLObjectType, GraphQLSchema, Kind, parse, printType, type GraphQLFieldConfigMap, type ObjectTypeDefinitionNode } from 'graphql';
import type { RouteTable } from './route-table.js';

function pick(type: GraphQLObjectType | null | undefined, table: RouteTable): GraphQLObjectType | undefined {
  if (!type) return undefined;
  const config = type.toConfig();
  const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
  for (const [name, field] of Object.entries(config.fields)) {
    if (`${type.name}.${name}` in table) fields[name] = field;
  }
  if (!Object.keys(fields).length) return undefined;
  const picked = new GraphQLObjectType({ ...config, fields });
  return withAstNode(picked);
}

/**
 * A root type built in code has no `astNode`, and Sofa's router then prints and parses the whole root
 * type again for every variable of every route to read argument descriptions (about two thirds of the
 * service's start-up after imports, issue 18). Parsed once here, the node carries the same descriptions.
 */
function withAstNode(type: GraphQLObjectType): GraphQLObjectType {
  if (type.astNode) return type;
  const node = parse(printType(type)).definitions[0];
  if (node?.kind === Kind.OBJECT_TYPE_DEFINITION) (type as { astNode?: ObjectTypeDefinitionNode }).astNode = node;
  return type;
}

/**
 * Sofa turns every root field into a route; a surface exposes only the operations in its route table,
 * so it gets a schema with just those root fields (all types and resolvers shared).
 */
export function schemaForRoutes(schema: GraphQLSchema, table: RouteTable): GraphQLSchema {
  const known = new Set(
    [schema.getQueryType(), schema.getMutationType()].flatMap((t) => (t ? Object.keys(t.getFields()).map((f) => `${t.name}.${f}`) : [])),
  );
  const missing = Object.keys(table).filter((op) => !known.has(op));
  if (missing.length) throw new Error(`Route table names operations the schema lacks: ${missing.join(', ')}`);
  const query = pick(schema.getQueryType(), table);
  if (!query) throw new Error('A REST surface needs at least one query operation');
  const mutation = pick(schema.getMutationType(), table);
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    query,
    mutation,
    types: config.types.filter((t) => t.name !== 'Query' && t.name !== 'Mutation'),
  });
}
