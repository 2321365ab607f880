import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../../core/context.js';
import { rowCapViolation } from '../../core/database/row-caps.js';
import { AppError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { connectorTools } from './tools/index.js';
import type { ConnectorTool } from './tools/tool.js';

const INSTRUCTIONS =
  "Life planner: the user's planning day (checklist, perimeter, tasks, bedtime targets), tasks and wellness logs. " +
  "Dates are the user's: call system_get_current_datetime when the day or time matters.";

function text(value: unknown, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

/** A service error answers its message (and details) as an `isError` result; anything else is logged and answered generically. */
async function call(tool: ConnectorTool, args: unknown, deps: AppDeps, userId: string, log: Logger): Promise<CallToolResult> {
  try {
    const result = await tool.run(args as never, { deps, userId, em: deps.orm.em.fork() });
    return text(result);
  } catch (caught) {
    const error = rowCapViolation(caught) ?? caught;
    if (error instanceof AppError) {
      return text({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } }, true);
    }
    log.error({ err: error, tool: tool.name }, 'connector tool failed');
    return text({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } }, true);
  }
}

/** The MCP server for one request of one user (stateless: made per POST /mcp). */
export function createMcpServer(deps: AppDeps, userId: string, log: Logger, version: string): McpServer {
  const server = new McpServer({ name: 'life-planner', title: 'Life planner', version }, { instructions: INSTRUCTIONS });
  for (const tool of connectorTools()) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: { title: tool.title, ...tool.annotations } },
      (args: unknown) => call(tool, args, deps, userId, log),
    );
  }
  return server;
}
