import { GraphQLBoolean, isEqualType, isInputObjectType, isScalarType, Kind, type GraphQLSchema, type TypeNode, type VariableDefinitionNode } from 'graphql';
import { parse as qsParse } from 'qs';

/**
 * An operation's variables read from a REST request exactly as Sofa's router reads them (sofa-api 0.18,
 * router.js `pickParam` and parse.js `parseVariable`), for the direct path that runs a route without
 * Sofa's router (rest/direct-route.ts): a path parameter first, else a truthy query value (qs-parsed),
 * else the body's value; missing and null values left out; scalars through their `serialize`, input
 * objects parsed from JSON text, lists made of single values. The arguments were already checked
 * (rest/variable-check.ts); this only reproduces what Sofa hands to execution, and the comparison of both
 * paths (rest/path-comparison.ts) checks the two agree on every request of the test suite.
 */
export function sofaVariables(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  sources: { params: Record<string, string>; search: string | undefined; body: Record<string, unknown> },
): Record<string, unknown> {
  let query: Record<string, unknown> | undefined;
  const variables: Record<string, unknown> = {};
  for (const definition of definitions) {
    const name = definition.variable.name.value;
    let raw: unknown;
    if (name in sources.params) raw = sources.params[name];
    else {
      query ??= qsParse(sources.search ?? '') as Record<string, unknown>;
      raw = query[name] || sources.body[name];
    }
    if (raw === null || raw === undefined) continue;
    const value = resolveVariable(raw, definition.type, schema);
    if (value !== undefined) variables[name] = value;
  }
  return variables;
}

function resolveVariable(value: unknown, type: TypeNode, schema: GraphQLSchema): unknown {
  if (type.kind === Kind.NAMED_TYPE) {
    const named = schema.getType(type.name.value);
    if (isScalarType(named)) {
      // Sofa: GraphQLBoolean.serialize takes a boolean or a number only.
      return named.serialize(isEqualType(GraphQLBoolean, named) ? value === 'true' || value === true : value);
    }
    if (isInputObjectType(named)) return value && typeof value === 'object' ? value : JSON.parse(value as string);
    return value;
  }
  if (type.kind === Kind.LIST_TYPE) return (Array.isArray(value) ? value : [value]).map((item) => resolveVariable(item, type.type, schema));
  return resolveVariable(value, type.type, schema);
}
