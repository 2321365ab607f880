import { describe, expect, it } from 'vitest';
import { execute, GraphQLError, parse, type ExecutionResult } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { executeCompiled } from './compiled-execute.js';

const steps: string[] = [];

/** Compiled execution must answer exactly what graphql-js answers; these are the cases where graphql-jit differs on its own. */
const schema = makeExecutableSchema({
  typeDefs: /* GraphQL */ `
    enum Effort { easy hard }
    type Item { name: String! sure: String! maybe: String }
    type Query {
      effort(effort: Effort! = easy, count: Int): String!
      failing: String
      item: Item
      items: [Item!]!
    }
    type Mutation { step(name: String!, fail: Boolean): String! }
  `,
  resolvers: {
    Mutation: {
      step: async (_: unknown, args: { name: string; fail?: boolean }) => {
        steps.push(args.name);
        if (args.fail) throw new Error(`${args.name} failed`);
        return args.name;
      },
    },
    Query: {
      effort: (_: unknown, args: { effort: string; count?: number | null }) => `${args.effort}:${args.count === undefined ? 'unset' : args.count}`,
      failing: () => {
        throw new Error('plain failure');
      },
      item: () => ({ name: 'one', sure: null, maybe: null }),
      items: async () => [{ name: 'a', sure: 'x' }, { name: 'b', sure: null }],
    },
  },
});

async function both(source: string, variableValues?: Record<string, unknown>): Promise<[ExecutionResult, ExecutionResult]> {
  const document = parse(source);
  const expected = await execute({ schema, document, variableValues });
  const actual = await executeCompiled({ schema, document, variableValues });
  return [expected, actual];
}

describe('compiled execution', () => {
  it('gives an omitted non-null variable its default, as graphql-js does; a null one stays refused', async () => {
    const query = 'query ($effort: Effort! = easy, $count: Int) { effort(effort: $effort, count: $count) }';
    const [expected, actual] = await both(query, {});
    expect(actual).toEqual(expected);
    expect(actual.data).toEqual({ effort: 'easy:unset' });
    const [expectedHard, actualHard] = await both(query, { effort: 'hard', count: 2 });
    expect(actualHard).toEqual(expectedHard);
    expect(actualHard.data).toEqual({ effort: 'hard:2' });
    const [expectedNull, actualNull] = await both(query, { effort: null });
    expect(actualNull.errors?.[0]?.message).toBe(expectedNull.errors?.[0]?.message);
  });

  it('answers errors with graphql-js shape: an extensions object, the path and the original error', async () => {
    const [expected, actual] = await both('{ failing }');
    expect(actual.data).toEqual(expected.data);
    const error = actual.errors![0]!;
    expect(error).toBeInstanceOf(GraphQLError);
    expect(error.extensions).toEqual({});
    expect(error.path).toEqual(['failing']);
    expect(error.originalError?.message).toBe('plain failure');
    expect(error.locations).toEqual(expected.errors![0]!.locations);
  });

  it('propagates a null in a non-null field to the nearest nullable parent like graphql-js', async () => {
    for (const query of ['{ item { name sure maybe } }', '{ items { name sure } }']) {
      const [expected, actual] = await both(query);
      expect(actual.data).toEqual(expected.data);
      expect(actual.errors?.map((e) => [e.message, e.path])).toEqual(expected.errors?.map((e) => [e.message, e.path]));
    }
  });

  it('runs root mutations one after another and stops at the first that fails, like graphql-js (later ones never run)', async () => {
    const mutation = 'mutation { a: step(name: "a") b: step(name: "b", fail: true) c: step(name: "c") }';
    steps.length = 0;
    const expected = await execute({ schema, document: parse(mutation) });
    expect(steps).toEqual(['a', 'b']);
    steps.length = 0;
    const actual = await executeCompiled({ schema, document: parse(mutation) });
    expect(steps).toEqual(['a', 'b']);
    expect(actual.data).toBeNull();
    expect(actual.errors?.map((e) => [e.message, e.path])).toEqual(expected.errors?.map((e) => [e.message, e.path]));
  });

  it('compiles a document once and reuses it (the same answer for the same document object)', async () => {
    const document = parse('{ effort }');
    const first = await executeCompiled({ schema, document });
    const second = await executeCompiled({ schema, document });
    expect(first).toEqual({ data: { effort: 'easy:unset' } });
    expect(second).toEqual(first);
  });
});
