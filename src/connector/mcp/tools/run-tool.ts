import { z } from 'zod';
import { AppError, ValidationError } from '../../../core/errors.js';
import { answerCeilingRefusal } from '../../../graphql/limited-execution.js';
import { withinGrant } from '../../scopes/answer-areas.js';
import { allows } from '../../scopes/connector-scopes.js';
import { scopeOf, type ConnectorTool, type ToolContext } from './tool.js';

const answerSchemas = new WeakMap<ConnectorTool, z.ZodType>();
/** The tool's answer as one schema (made once per tool). */
function answerSchema(tool: ConnectorTool): z.ZodType {
  let schema = answerSchemas.get(tool);
  if (!schema) answerSchemas.set(tool, (schema = z.object(tool.outputSchema)));
  return schema;
}

/** What a call outside the grant answers, naming the scope it needs. */
export function insufficientScope(needed: string): AppError {
  const message = `This connection was not granted ${needed}: ask the person to allow it on the connection (PATCH /api/v1/connections/:id) or to connect again`;
  return new AppError('INSUFFICIENT_SCOPE', 403, message, { scope: needed });
}

/**
 * The one way a tool runs — a tool call, a resource read, a prompt's gathering: refused outside the
 * connection's grant, and its answer kept within it (an aggregate's items of areas not granted are
 * left out, `withinGrant`). `args` are already checked against the tool's schema.
 */
export async function runTool(tool: ConnectorTool, args: unknown, ctx: ToolContext): Promise<object> {
  const needed = scopeOf(tool);
  if (needed && !allows(ctx.granted, needed)) throw insufficientScope(needed);
  const answer = withinGrant(await tool.run(args as never, ctx), ctx.granted, answerSchema(tool));
  // The answer ceiling every surface has (src/graphql/limited-execution.ts), before the SDK writes it.
  const tooLarge = answerCeilingRefusal(answer);
  if (tooLarge) throw new ValidationError(tooLarge, [{ path: [], message: tooLarge }]);
  return answer;
}
