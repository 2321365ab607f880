import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import type { AppContext } from '../core/context.js';
import { UNDO_TOKEN_HEADER, undoTokenByContext } from '../graphql/undo-token-holder.js';
import { UNDO_KINDS } from './undo-kinds.js';
import { UndoService } from './undo.service.js';

/**
 * Makes each registered write (src/undo/undo-kinds.ts) offer an undo token, in one place for every
 * surface built on the schema (GraphQL and both REST surfaces): its mutation's resolver is wrapped to
 * read what the inverse needs before the write, keep the offer after it succeeded, and hand the token to
 * the answer (`Undo-Token` header, GraphQL `extensions.undoToken`). A failed write offers nothing.
 */
export function withUndoOffers(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const kind of UNDO_KINDS) {
    const field = fields[kind.mutation];
    if (!field?.resolve) throw new Error(`undo kind ${kind.kind}: no mutation ${kind.mutation}`);
    const resolve = field.resolve as GraphQLFieldResolver<unknown, AppContext>;
    field.resolve = async (source, args: Record<string, unknown>, context: AppContext, info) => {
      // A signed-in person, or an API key's owner (the Public API's writes answer the token too).
      const userId = context.auth?.user?.id ?? context.apiKey?.userId;
      if (!userId) return resolve(source, args, context, info);
      const before = kind.before ? await kind.before(context, userId, args) : undefined;
      const result: unknown = await resolve(source, args, context, info);
      const offer = await kind.offer(context, userId, args, result, before);
      if (offer) {
        const token = await UndoService.forRequest(context).offer(userId, kind.kind, offer);
        undoTokenByContext.set(context, token);
        context.http.setHeader?.(UNDO_TOKEN_HEADER, token);
      }
      return result;
    };
  }
  return schema;
}
