import { z } from 'zod';
import type { ConnectorTool } from './tool.js';

const undoTokenOut = z
  .string()
  .optional()
  .describe('Present when this call can be undone: pass it to the `undo` tool within 10 minutes to revert it (docs/undo.md).');

/**
 * A tool whose write is an undo kind's mutation (`undoAs`) answers the token its write offered as
 * `undoToken`, in one place for every such tool (as REST answers `Undo-Token`). Applied inside
 * `withClientRequestId`, so a repeated call's kept answer carries the first call's token.
 */
export function withUndoToken(tool: ConnectorTool): ConnectorTool {
  const mutation = tool.undoAs;
  if (!mutation) return tool;
  return {
    ...tool,
    outputSchema: { ...tool.outputSchema, undoToken: undoTokenOut },
    async run(args, ctx) {
      ctx.undo.mutation = mutation;
      ctx.undo.token = undefined;
      const answer = await tool.run(args as never, ctx);
      return ctx.undo.token ? { ...answer, undoToken: ctx.undo.token } : answer;
    },
  };
}
