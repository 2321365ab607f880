import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { userToday } from './tools/common-arguments.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BrainNoteService } from '../../brain/notes/brain-note.service.js';
import { addDays, mondayOf } from '../../core/dates.js';
import { AppError, nullIfNotFound } from '../../core/errors.js';
import { GroceryListService } from '../../nutrition/grocery-list.service.js';
import { WeekService } from '../../planning/week.service.js';
import { allows } from '../scopes/connector-scopes.js';
import { connectorTools } from './tools/index.js';
import { runTool } from './tools/run-tool.js';
import { scopeOf, type ConnectorTool, type ToolContext } from './tools/tool.js';

export const RESOURCE_SCHEME = 'life-planner';
/** Notes a client is offered in the resource list (the newest); any other is still readable by its URI. */
const NOTES_LISTED = 50;

/**
 * A resource a client can attach, read through one of the read-only tools (so it answers exactly what
 * the tool answers, under the tool's scope). `args` turns the URI's variables into the tool's arguments;
 * `list` offers the instances worth showing (bounded), and only those that read now: a week never
 * generated, or a week without a grocery list, is not offered (reading it would be NOT_FOUND).
 */
interface ConnectorResource {
  name: string;
  title: string;
  description: string;
  uri: string;
  tool: string;
  args(variables: Record<string, string>): Record<string, unknown>;
  list?(ctx: ToolContext): Promise<{ uri: string; name: string }[]>;
}

const today = userToday;


/** The user's week starting on `monday` when it was generated (reading one that was not is NOT_FOUND). */
const existingWeek = (ctx: ToolContext, monday: string) => nullIfNotFound(ctx.service(WeekService).findByStart(ctx.userId, monday));
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export const CONNECTOR_RESOURCES: readonly ConnectorResource[] = [
  {
    name: 'today',
    title: 'Today',
    description: "The user's today: checklist, perimeter, tasks and bedtime targets (planning_get_today).",
    uri: `${RESOURCE_SCHEME}://day/today`,
    tool: 'planning_get_today',
    args: () => ({}),
  },
  {
    name: 'day',
    title: 'A day',
    description: 'A day by date, YYYY-MM-DD (planning_get_day).',
    uri: `${RESOURCE_SCHEME}://day/{date}`,
    tool: 'planning_get_day',
    args: (v) => ({ date: v.date }),
    async list(ctx) {
      const monday = mondayOf(await today(ctx));
      if (!(await existingWeek(ctx, monday))) return [];
      return Array.from({ length: 7 }, (_, i) => addDays(monday, i)).map((date) => ({ uri: `${RESOURCE_SCHEME}://day/${date}`, name: `Day ${date}` }));
    },
  },
  {
    name: 'week',
    title: 'A week',
    description: 'The week holding a date, YYYY-MM-DD (planning_get_week).',
    uri: `${RESOURCE_SCHEME}://week/{date}`,
    tool: 'planning_get_week',
    args: (v) => ({ date: v.date }),
    async list(ctx) {
      const monday = mondayOf(await today(ctx));
      const mondays = [monday, addDays(monday, -7)];
      const weeks = await Promise.all(mondays.map((date) => existingWeek(ctx, date)));
      return mondays.filter((_, i) => weeks[i]).map((date) => ({ uri: `${RESOURCE_SCHEME}://week/${date}`, name: `Week of ${date}` }));
    },
  },
  {
    name: 'grocery-list',
    title: 'Grocery list of a week',
    description: 'The grocery list of the week holding a date, YYYY-MM-DD, by section (nutrition_grocery_list).',
    uri: `${RESOURCE_SCHEME}://grocery-list/{date}`,
    tool: 'nutrition_grocery_list',
    args: (v) => ({ date: v.date }),
    async list(ctx) {
      const monday = mondayOf(await today(ctx));
      const week = await existingWeek(ctx, monday);
      if (!week || !(await nullIfNotFound(ctx.service(GroceryListService).getForWeek(ctx.userId, week.id)))) return [];
      return [{ uri: `${RESOURCE_SCHEME}://grocery-list/${monday}`, name: `Groceries for the week of ${monday}` }];
    },
  },
  {
    name: 'insights',
    title: 'Insights',
    description: "What the user's data says: the strongest findings of the nightly insights (insights_list).",
    uri: `${RESOURCE_SCHEME}://insights`,
    tool: 'insights_list',
    args: () => ({ limit: 20 }),
  },
  {
    name: 'insights-week',
    title: 'Weekly summary',
    description: 'The week holding a date, YYYY-MM-DD, against the week before: what rose, what fell, streaks (insights_weekly_summary).',
    uri: `${RESOURCE_SCHEME}://insights/week/{date}`,
    tool: 'insights_weekly_summary',
    args: (v) => ({ date: v.date }),
    async list(ctx) {
      const monday = mondayOf(await today(ctx));
      return [monday, addDays(monday, -7)].map((date) => ({ uri: `${RESOURCE_SCHEME}://insights/week/${date}`, name: `Summary of the week of ${date}` }));
    },
  },
  {
    name: 'brain-note',
    title: 'A Brain note',
    description: 'A Brain note by id (brain_read_note).',
    uri: `${RESOURCE_SCHEME}://brain/note/{noteId}`,
    tool: 'brain_read_note',
    args: (v) => ({ noteId: v.noteId }),
    async list(ctx) {
      const notes = await ctx.service(BrainNoteService).list(ctx.userId, { limit: NOTES_LISTED });
      return notes.items.map((note) => ({ uri: `${RESOURCE_SCHEME}://brain/note/${note.id}`, name: note.title }));
    },
  },
];

/** A tool's answer as a resource's contents; a service error becomes a JSON-RPC error naming it. */
async function read(tool: ConnectorTool, args: Record<string, unknown>, uri: URL, context: () => ToolContext) {
  // The URI's variables are the tool's arguments: checked by the tool's own schema, as a call would be.
  const parsed = z.object(tool.inputSchema).safeParse(args);
  if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid resource URI ${uri.href}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  try {
    const value = await runTool(tool, parsed.data, context());
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }] };
  } catch (error) {
    if (error instanceof AppError) {
      const code = error.code === 'NOT_FOUND' ? -32002 /* resource not found (MCP) */ : ErrorCode.InvalidParams;
      throw new McpError(code, error.message, { code: error.code, uri: uri.href, ...(error.details ? { details: error.details } : {}) });
    }
    throw error;
  }
}

/**
 * Registers the resources the grant allows (each needs its tool's scope); the others are neither listed
 * nor readable. No subscriptions: the connector is stateless (one server per POST, no stream back), so
 * it has no channel on which to notify a change (see docs/connector.md).
 */
export function registerResources(server: McpServer, granted: readonly string[], context: () => ToolContext): void {
  const tools = new Map(connectorTools().map((tool) => [tool.name, tool]));
  for (const resource of CONNECTOR_RESOURCES) {
    const tool = tools.get(resource.tool);
    if (!tool) throw new Error(`Resource ${resource.name} reads through ${resource.tool}, which is not a tool`);
    const needed = scopeOf(tool);
    if (needed && !allows(granted, needed)) continue;
    const metadata = { title: resource.title, description: resource.description, mimeType: 'application/json' };
    if (!resource.uri.includes('{')) {
      server.registerResource(resource.name, resource.uri, metadata, (uri) => read(tool, resource.args({}), uri, context));
      continue;
    }
    const list = resource.list;
    const template = new ResourceTemplate(resource.uri, {
      list: list ? async () => ({ resources: (await list(context())).map((r) => ({ ...r, mimeType: 'application/json' })) }) : undefined,
    });
    server.registerResource(resource.name, template, metadata, (uri, variables) =>
      read(tool, resource.args(Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, one(v)]))), uri, context),
    );
  }
}
