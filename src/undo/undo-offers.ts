import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import type { AppContext } from '../core/context.js';
import type { ServiceScope } from '../core/request-services.js';
import { UNDO_TOKEN_HEADER, undoTokenByContext } from '../graphql/undo-token-holder.js';
import type { UndoArgs } from './undo-kind.js';
import { UNDO_KINDS, type UndoKind } from './undo-kinds.js';
import { UndoService } from './undo.service.js';

const kindByMutation = new Map<string, UndoKind>();
for (const kind of UNDO_KINDS) {
  // Two kinds of one mutation would offer two tokens for one write: refused when the app starts.
  if (kindByMutation.has(kind.mutation)) throw new Error(`undo kinds ${kindByMutation.get(kind.mutation)!.kind} and ${kind.kind}: one mutation, ${kind.mutation}`);
  kindByMutation.set(kind.mutation, kind);
}

/** The undo kind of a GraphQL mutation, or undefined when that write offers no undo. */
export const undoKindOfMutation = (mutation: string): UndoKind | undefined => kindByMutation.get(mutation);

/**
 * Runs `write`, the mutation `mutation` with its GraphQL arguments `args`, and keeps its undo offer when
 * the mutation is a registered kind (src/undo/undo-kinds.ts): what the inverse needs is read before the
 * write, the offer is kept after it succeeded (a failed write offers nothing). `write` answers what the
 * mutation's resolver answers (the kind's `offer` reads it). Every surface goes through here: the
 * schema's resolvers (GraphQL, both REST surfaces) and the connector's tools.
 */
export async function offeringUndo<T>(scope: ServiceScope, userId: string, mutation: string, args: UndoArgs, write: () => Promise<T>): Promise<{ result: T; token?: string }> {
  const kind = kindByMutation.get(mutation);
  if (!kind) return { result: await write() };
  const before = kind.before ? await kind.before(scope, userId, args) : undefined;
  const result = await write();
  const offer = await kind.offer(scope, userId, args, result, before);
  if (!offer) return { result };
  return { result, token: await UndoService.forRequest(scope).offer(userId, kind.kind, offer) };
}

/**
 * The person a request speaks for: the API key's owner on the Public API, else the session's user. An
 * API-key request has no session (`auth` is null), and reading only the session was why the Public API
 * offered no undo.
 */
export const requestPerson = (context: AppContext): string | undefined => context.apiKey?.userId ?? context.auth?.user?.id;

/**
 * Makes each registered write offer an undo token, in one place for every surface built on the schema
 * (GraphQL and both REST surfaces): its mutation's resolver is wrapped (offeringUndo) and the token is
 * handed to the answer (`Undo-Token` header, GraphQL `extensions.undoToken`).
 */
export function withUndoOffers(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getMutationType()?.getFields() ?? {};
  for (const kind of UNDO_KINDS) {
    const field = fields[kind.mutation];
    if (!field?.resolve) throw new Error(`undo kind ${kind.kind}: no mutation ${kind.mutation}`);
    const resolve = field.resolve as GraphQLFieldResolver<unknown, AppContext>;
    field.resolve = async (source, args: Record<string, unknown>, context: AppContext, info) => {
      const userId = requestPerson(context);
      if (!userId) return resolve(source, args, context, info);
      const { result, token } = await offeringUndo(context, userId, kind.mutation, args, async () => (await resolve(source, args, context, info)) as unknown);
      if (token) {
        undoTokenByContext.set(context, token);
        context.http.setHeader?.(UNDO_TOKEN_HEADER, token);
      }
      return result;
    };
  }
  return schema;
}
