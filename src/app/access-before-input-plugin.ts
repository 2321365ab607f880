import type { ApolloServerPlugin } from '@apollo/server';
import { getVariableValues, GraphQLError, Kind, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { AppContext } from '../core/context.js';
import { AppError } from '../core/errors.js';
import { checkOperationAccess } from '../accounts/operation-access.js';

/** The root fields an operation selects (through its fragments too), by schema name. */
function rootFields(selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, seen = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value.startsWith('__') ? [] : [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, fragments, seen);
    const name = selection.name.value;
    const fragment = fragments[name];
    if (!fragment || seen.has(name)) return [];
    seen.add(name);
    return rootFields(fragment.selectionSet, fragments, seen);
  });
}

/**
 * On /graphql the variables are coerced before any resolver runs, so `@Authorized` came after them:
 * `createTask(title: $title)` with no variables answered 400 "title is required" to a caller without a
 * session. When the variables would be refused, the access of each root field is checked first and
 * its refusal (401, 403) is the answer (issue 34, item 11). Valid variables are left to the resolvers'
 * own check, so an operation mixing anonymous and signed-in fields keeps its partial answer.
 */
export function accessBeforeInputPlugin(): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, operation, document, request, contextValue }) {
          if (!operation?.variableDefinitions?.length) return;
          const coerced = getVariableValues(schema, operation.variableDefinitions, request.variables ?? {}, { maxErrors: 1 });
          if (!coerced.errors) return;
          const fragments = Object.fromEntries(
            document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
          );
          for (const field of rootFields((operation as OperationDefinitionNode).selectionSet, fragments)) {
            try {
              checkOperationAccess(contextValue, field);
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              throw new GraphQLError(error.message, { originalError: error, extensions: { http: { status: error.status } } });
            }
          }
        },
      };
    },
  };
}
