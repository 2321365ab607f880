import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { AppContext } from '../core/context.js';
import { executeWithinLimits } from './limited-execution.js';

type Gateway = ApolloServerOptionsWithGateway<AppContext>['gateway'];

/**
 * Apollo Server executes through its gateway interface when one is given: this one serves our own
 * schema (no federation) and runs each operation through the one executor (limited-execution.ts:
 * operation limits, compiled execution, answer ceiling), so `/graphql`, the REST surfaces and the
 * live transports share one execution path. Parsing, validation, the document cache and error
 * formatting stay Apollo's.
 */
export function compiledExecutionGateway(schema: GraphQLSchema): Gateway {
  return {
    async load() {
      return {
        executor: async (request) =>
          executeWithinLimits({
            schema,
            document: request.document,
            operationName: request.operationName,
            variableValues: request.request.variables,
            contextValue: request.context,
          }),
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    async stop() {},
  };
}
