import { Kind, OperationTypeNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { sessionRoutes } from '../../rest/session-routes.js';
import { matchRoute } from '../../rest/route-table.js';
import { AUTH_MUTATIONS } from '../accounts/auth-operations.js';

/** Whether a session API request (path below /api/v1) runs an auth mutation. */
export function isAuthMutationRoute(method: string, path: string): boolean {
  const match = matchRoute(sessionRoutes, '', method, path);
  return match.kind === 'route' && match.operation.startsWith('Mutation.') && AUTH_MUTATIONS.has(match.operation.slice('Mutation.'.length));
}

function countIn(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (AUTH_MUTATIONS.has(selection.name.value)) count++;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countIn(selection.selectionSet, fragments, seen);
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) count += countIn(fragment.selectionSet, fragments, seen);
    }
  }
  return count;
}

/** Auth mutations at the root of the operation to run (aliases and fragments included, directives ignored). */
export function authMutationCount(document: DocumentNode, operation: OperationDefinitionNode): number {
  if (operation.operation !== OperationTypeNode.MUTATION) return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return countIn(operation.selectionSet, fragments, new Set());
}
