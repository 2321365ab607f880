import { z } from 'zod';
import { UndoService } from '../../../undo/undo.service.js';
import { undoKind } from '../../../undo/undo-kinds.js';
import { allows, SCOPE_AREAS, type Scope, type ScopeArea } from '../../scopes/connector-scopes.js';
import { insufficientScope } from './run-tool.js';
import { defineTool, type ConnectorTool, type ToolContext } from './tool.js';

/**
 * Undoing a write needs the write scope of the area of the tool that makes it (its `undoAs`), checked
 * once the token's kind is read, before anything is written (as the trash tools do). A token of a write
 * no tool makes (one from the app) needs the write scope of every area: the connector cannot place it.
 */
function allowUndo(ctx: ToolContext, areaOf: (mutation: string) => ScopeArea | undefined) {
  return (kind: string) => {
    const mutation = undoKind(kind)?.mutation;
    const area = mutation ? areaOf(mutation) : undefined;
    const needed: Scope[] = area ? [`${area}:write`] : SCOPE_AREAS.map((each) => `${each}:write` as Scope);
    const missing = needed.find((scope) => !allows(ctx.granted, scope));
    if (missing) throw insufficientScope(missing);
  };
}

/** The `undo` tool; `areaOf` names the area of the tool whose write a mutation is (tools/index.ts). */
export function undoTools(areaOf: (mutation: string) => ScopeArea | undefined): ConnectorTool[] {
  return [
    defineTool({
      name: 'undo',
      mirrors: 'Mutation.undo',
      title: 'Undo a write',
      description:
        'Reverts a write whose answer carried `undoToken` (within 10 minutes), with its side effects (XP, events). Single use. ' +
        'Needs the write scope of that write\'s area. Refused with UNDO_EXPIRED after 10 minutes, UNDO_CONFLICT when the record changed since, NOT_FOUND for a used or unknown token.',
      inputSchema: { token: z.string().min(1).max(4096).describe('The `undoToken` a tool answered (or an app write\'s `Undo-Token`).') },
      outputSchema: { kind: z.string().describe('The write undone, e.g. task_update, checklist_toggle, task_delete.'), recordId: z.string() },
      // The area is the token's write's, known once the token is read (allowUndo).
      area: null,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      async run(args, ctx) {
        return ctx.service(UndoService).undo(ctx.userId, args.token, new Date(), allowUndo(ctx, areaOf));
      },
    }),
  ];
}
