import type { ApolloServerPlugin } from '@apollo/server';
import { undoTokenByContext } from './undo-token-holder.js';

/** Puts the undo token a write offered into the GraphQL answer's `extensions.undoToken` (docs/undo.md). */
export function undoTokenPlugin(): ApolloServerPlugin<object> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          const token = undoTokenByContext.get(contextValue);
          if (!token || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, undoToken: token };
        },
      };
    },
  };
}
