import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildAppSchema } from '../app/schema.js';
import { constraintsOf, sources } from '../openapi/rest-openapi.js';
import { connectorTools } from './mcp/tools/index.js';

/**
 * Issue 25: a tool's argument bounds come from the same vocabulary as GraphQL's. For every tool that
 * names the operation it mirrors, each argument both have carries the same length and range bounds
 * in the tool's JSON schema (what assistants see) as in the GraphQL argument's validation rules.
 */
type Bounds = { minLength?: number; maxLength?: number; minimum?: number; maximum?: number; exclusiveMinimum?: boolean };

function toolBounds(schema: Record<string, unknown>): Bounds {
  const bounds: Bounds = {};
  // zod's `.int()` adds the safe-integer range, which GraphQL's Int leaves unsaid.
  for (const key of ['minLength', 'maxLength', 'minimum', 'maximum'] as const) {
    if (typeof schema[key] === 'number' && Math.abs(schema[key] as number) !== Number.MAX_SAFE_INTEGER) bounds[key] = schema[key] as number;
  }
  if (typeof schema.exclusiveMinimum === 'number') Object.assign(bounds, { minimum: schema.exclusiveMinimum, exclusiveMinimum: true });
  return bounds;
}

function graphqlBounds(rules: Record<string, unknown>): Bounds {
  const bounds: Bounds = {};
  for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum'] as const) if (rules[key] !== undefined) (bounds as Record<string, unknown>)[key] = rules[key];
  return bounds;
}

/** The JSON schema of one argument, through optional/nullable wrappers (`anyOf` with null). */
function argumentSchema(schema: Record<string, any>): Record<string, unknown> {
  if (Array.isArray(schema.anyOf)) return argumentSchema(schema.anyOf.find((s: Record<string, unknown>) => s.type !== 'null') ?? {});
  return schema;
}

let schema: Awaited<ReturnType<typeof buildAppSchema>>;
beforeAll(async () => {
  schema = await buildAppSchema();
});

describe('tool arguments and GraphQL arguments', () => {
  const mirroring = connectorTools().filter((tool) => tool.mirrors);

  it('most writing tools name the operation they mirror', () => {
    expect(mirroring.length).toBeGreaterThanOrEqual(10);
  });

  let compared = 0;
  afterAll(() => {
    // The comparison is not vacuous: 101 arguments carry bounds on both sides today.
    expect(compared).toBeGreaterThanOrEqual(80);
  });

  it.each(mirroring.map((tool) => [tool.name, tool] as const))('%s has the bounds of its GraphQL operation', (_name, tool) => {
    const [root, field] = tool.mirrors!.split('.') as [string, string];
    const operation = (root === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[field];
    expect(operation, `${tool.mirrors} is an operation of the schema`).toBeDefined();
    // An operation without an arguments class (no arguments, or single @Arg ids) has no bounds to share.
    const rules = constraintsOf(sources().argsOf(field));
    const json = z.toJSONSchema(z.object(tool.inputSchema), { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, Record<string, unknown>> };
    const shared = Object.keys(json.properties).filter((name) => rules.has(name) && Object.keys(graphqlBounds(rules.get(name)!)).length);
    compared += shared.length;
    for (const name of shared) {
      expect(toolBounds(argumentSchema(json.properties[name]!)), `${tool.name}.${name} against ${tool.mirrors}`).toEqual(graphqlBounds(rules.get(name)!));
    }
  });
});
