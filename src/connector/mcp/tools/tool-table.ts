import { z } from 'zod';
import { connectorTools } from './index.js';
import { scopeOf, type ConnectorTool } from './tool.js';

/** The connector page's tool table (docs/connector.md) is written between these markers (npm run generate; a drift test compares). */
export const TOOL_TABLE_START = '<!-- tool-table:start (npm run generate) -->';
export const TOOL_TABLE_END = '<!-- tool-table:end -->';

function argumentsOf(tool: ConnectorTool): string {
  const schema = z.toJSONSchema(z.object(tool.inputSchema), { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[] };
  const names = Object.keys(schema.properties ?? {});
  if (!names.length) return '—';
  const required = new Set(schema.required ?? []);
  return names.map((name) => `\`${name}${required.has(name) ? '' : '?'}\``).join(', ');
}

function annotationsOf(tool: ConnectorTool): string {
  const { readOnlyHint, destructiveHint, idempotentHint } = tool.annotations;
  if (readOnlyHint) return 'read-only';
  return [destructiveHint ? 'destructive' : 'writes', idempotentHint ? 'idempotent' : null].filter(Boolean).join(', ');
}

/** One row per tool, in the order the server lists them: name, arguments (`?` optional), annotations, scope, title. */
export function toolTable(): string {
  const rows = connectorTools().map((tool) => `| \`${tool.name}\` | ${argumentsOf(tool)} | ${annotationsOf(tool)} | ${scopeOf(tool) ? `\`${scopeOf(tool)}\`` : 'none'} | ${tool.title} |`);
  return [TOOL_TABLE_START, '| tool | arguments | annotations | scope | what |', '|---|---|---|---|---|', ...rows, TOOL_TABLE_END].join('\n');
}

/** The page that holds the tool table. */
export const TOOL_TABLE_PAGE = 'docs/connector.md';

/** The page's text with its tool table replaced by the current one. */
export function withToolTable(page: string): string {
  const start = page.indexOf(TOOL_TABLE_START);
  const end = page.indexOf(TOOL_TABLE_END);
  if (start < 0 || end < start) throw new Error(`${TOOL_TABLE_PAGE} has no ${TOOL_TABLE_START} … ${TOOL_TABLE_END} block`);
  return page.slice(0, start) + toolTable() + page.slice(end + TOOL_TABLE_END.length);
}
