/**
 * The undo token a request's write offered (docs/undo.md), by request context: filled where the write
 * ran (src/undo/undo-offers.ts), read by the GraphQL answer (`extensions.undoToken`, undo-token-plugin.ts);
 * REST answers it as the `Undo-Token` header, set through the context's HttpBridge.
 */
export const undoTokenByContext = new WeakMap<object, string>();

export const UNDO_TOKEN_HEADER = 'Undo-Token';
