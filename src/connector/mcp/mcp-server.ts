import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { allows } from '../scopes/connector-scopes.js';
import type { AppDeps } from '../../core/context.js';
import { rowCapViolation } from '../../core/database/row-caps.js';
import { z } from 'zod';
import { AppError, ValidationError } from '../../core/errors.js';
import { unstorableTextErrors } from '../../core/storable-text.js';
import type { Logger } from '../../core/logger.js';
import { connectorTools } from './tools/index.js';
import { fieldMessage, plainErrorMessages } from './error-text.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { insufficientScope, runTool } from './tools/run-tool.js';
import { scopeOf, toolContext, type ConnectorTool, type ToolContext } from './tools/tool.js';

const INSTRUCTIONS =
  "Life planner: the user's days (checklist, perimeter, tasks, bedtime targets), training, health logs, food (dinner plans, grocery lists), " +
  'journal, reading, Brain notes and databases, files, people, projects, money and gamification — what the person granted this connection. ' +
  "Tools take ids or names where a person would say a name; days default to the user's today in their time zone. " +
  "Dates are the user's: call system_get_current_datetime when the day or time matters.";

function text(value: unknown, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

/** A tool's answer: compact JSON text, and the same object as `structuredContent` (checked by the SDK against `outputSchema`). */
function answer(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** An `isError` result in the shape every tool failure has: `{ error: { code, message, details? } }`. */
function failure(error: AppError): CallToolResult {
  return text({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } }, true);
}

/**
 * A service error answers its message (and details) as an `isError` result; anything else is logged and
 * answered generically. Text PostgreSQL cannot store (NUL, a lone surrogate) is refused first, naming
 * its argument, as the other surfaces refuse it (it would fail the write, or become U+FFFD).
 */
async function call(tool: ConnectorTool, args: unknown, ctx: ToolContext, log: Logger): Promise<CallToolResult> {
  const unstorable = unstorableTextErrors(args);
  if (unstorable.length) return failure(new ValidationError(fieldMessage(unstorable[0]!.path, unstorable[0]!.message), unstorable));
  try {
    const result = await runTool(tool, args, ctx);
    return answer(result as Record<string, unknown>);
  } catch (caught) {
    const error = rowCapViolation(caught) ?? caught;
    if (error instanceof AppError) return failure(error);
    log.error({ err: error, tool: tool.name }, 'connector tool failed');
    return text({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } }, true);
  }
}

/**
 * Bad arguments in the shape of every other tool failure. The SDK checks a call's arguments against the
 * tool's schema before our handler runs and answers its own text ("Input validation error: …"); its
 * check is a private method, so it is wrapped on the instance (the one place we reach into the SDK's
 * server): our own parse with the same shape runs first, and its issues become a VALIDATION_ERROR whose
 * `details.errors` name each argument. The SDK puts the error's message in the result's text as is.
 */
function argumentErrorsAsToolFailures(server: McpServer, tools: ConnectorTool[], granted: readonly string[]): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const sdk = server as unknown as { validateToolInput(tool: unknown, args: unknown, name: string): Promise<unknown> };
  const validate = sdk.validateToolInput.bind(server);
  sdk.validateToolInput = async (tool, args, name) => {
    const ours = byName.get(name);
    // A tool outside the grant is refused before its arguments are read, naming the scope it needs.
    const needed = ours ? scopeOf(ours) : null;
    if (needed && !allows(granted, needed)) {
      const refused = insufficientScope(needed);
      throw new Error(JSON.stringify({ error: { code: refused.code, message: refused.message, details: refused.details } }));
    }
    const parsed = ours ? z.object(ours.inputSchema).safeParse(args ?? {}) : null;
    if (parsed && !parsed.success) {
      const errors = parsed.error.issues.map((issue) => ({ path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: issue.message }));
      const message = `Invalid arguments: ${errors.map((e) => (e.path.length ? fieldMessage(e.path, e.message) : `(arguments) ${e.message}`)).join('; ')}`;
      throw new Error(JSON.stringify({ error: { code: 'VALIDATION_ERROR', message, details: { errors } } }));
    }
    return validate(tool, args, name);
  };
}

/**
 * Whether a grant sees a tool: its scope is granted; a writing tool whose area is the call's (quick_add:
 * the line decides) is listed only to a grant that can write somewhere, so a read-only connection lists
 * no writing tool.
 */
function listedFor(tool: ConnectorTool, granted: readonly string[]): boolean {
  const needed = scopeOf(tool);
  if (needed) return allows(granted, needed);
  return tool.annotations.readOnlyHint || granted.some((scope) => scope.endsWith(':write'));
}

/** `tools/list` answers by the set of tools a grant hides (a handful of grants in practice; capped). */
const listedTools = new Map<string, ListToolsResult>();
const LISTS_CACHED = 64;

/**
 * Lists only the tools the grant allows. The SDK builds all 69 tools' JSON schemas on every `tools/list`
 * (~9 ms); the tools are fixed once the process runs, so the answer is kept per set of hidden tools.
 * Its handler is wrapped on this server instance (a map the SDK keeps per server); the hidden tools stay
 * registered so that a forced call answers INSUFFICIENT_SCOPE rather than "not found".
 */
function listGrantedToolsOnly(server: McpServer, tools: ConnectorTool[], granted: readonly string[]): void {
  const hidden = new Set(tools.filter((tool) => !listedFor(tool, granted)).map((tool) => tool.name));
  const key = [...hidden].join(',');
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, (request: unknown, extra: unknown) => Promise<ListToolsResult>> })._requestHandlers;
  const list = handlers.get('tools/list')!;
  handlers.set('tools/list', async (request, extra) => {
    const cached = listedTools.get(key);
    if (cached) return cached;
    const result = await list(request, extra);
    const answer = { ...result, tools: result.tools.filter((tool) => !hidden.has(tool.name)) };
    if (listedTools.size >= LISTS_CACHED) listedTools.clear();
    listedTools.set(key, answer);
    return answer;
  });
}

/** The MCP server for one request of one user (stateless: made per POST /mcp), offering what `granted` allows. */
export function createMcpServer(deps: AppDeps, userId: string, granted: readonly string[], log: Logger, version: string): McpServer {
  const server = new McpServer({ name: 'life-planner', title: 'Life planner', version }, { instructions: INSTRUCTIONS });
  plainErrorMessages(server);
  const tools = connectorTools();
  // A fresh entity manager for each tool run, resource read and prompt.
  const context = (): ToolContext => toolContext(deps, userId, granted);
  argumentErrorsAsToolFailures(server, tools, granted);
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { title: tool.title, ...tool.annotations },
      },
      (args: unknown) => call(tool, args, context(), log),
    );
  }
  listGrantedToolsOnly(server, tools, granted);
  registerResources(server, granted, context);
  registerPrompts(server, granted, context);
  return server;
}
