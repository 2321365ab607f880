import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { userToday } from './tools/common-arguments.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { addDays, mondayOf } from '../../core/dates.js';
import { AppError } from '../../core/errors.js';
import { allows, type Scope } from '../scopes/connector-scopes.js';
import { connectorTools } from './tools/index.js';
import { runTool } from './tools/run-tool.js';
import { scopeOf, type ToolContext } from './tools/tool.js';

const dateArg = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .optional();

/** What a prompt gathers: each tool it reads through, or why it could not (not granted, or the service's error). */
type Gathered = { tool: string; value: unknown } | { tool: string; missing: string };

/**
 * Runs read-only tools for a prompt with the tools' own schemas and scopes: a section the grant does not
 * cover is left out and said so, never read around the grant.
 */
function gatherer(ctx: ToolContext) {
  const tools = new Map(connectorTools().map((tool) => [tool.name, tool]));
  return async (name: string, args: Record<string, unknown> = {}): Promise<Gathered> => {
    const tool = tools.get(name);
    if (!tool) return { tool: name, missing: 'not available on this server' };
    const needed = scopeOf(tool);
    if (needed && !allows(ctx.granted, needed)) return { tool: name, missing: `not shared with this assistant (needs ${needed})` };
    try {
      return { tool: name, value: await runTool(tool, z.object(tool.inputSchema).parse(args), ctx) };
    } catch (error) {
      if (error instanceof AppError) return { tool: name, missing: error.message };
      throw error;
    }
  };
}

function section(title: string, gathered: Gathered): string {
  const body = 'value' in gathered ? `\`\`\`json\n${JSON.stringify(gathered.value)}\n\`\`\`` : `(${gathered.missing})`;
  return `## ${title} (${gathered.tool})\n${body}`;
}

function userMessage(text: string): GetPromptResult['messages'][number] {
  return { role: 'user', content: { type: 'text', text } };
}

interface ConnectorPrompt {
  name: string;
  title: string;
  description: string;
  /** The scope without which the prompt makes no sense (it is not offered without it). */
  needs: Scope;
  argsSchema: Record<string, z.ZodOptional<z.ZodString>>;
  build(args: Record<string, string | undefined>, ctx: ToolContext): Promise<GetPromptResult>;
}


export const CONNECTOR_PROMPTS: readonly ConnectorPrompt[] = [
  {
    name: 'plan_my_day',
    title: 'Plan my day',
    description: "Plans a day (today by default) with the person: the day's checklist and perimeter, its tasks, the open tasks and the bedtime targets.",
    needs: 'planning:read',
    argsSchema: { date: dateArg.describe('YYYY-MM-DD; today when absent.') },
    async build(args, ctx) {
      const date = args.date ?? (await userToday(ctx));
      const gather = gatherer(ctx);
      const [day, todo, doing, agenda] = await Promise.all([
        gather('planning_get_day', { date }),
        gather('tasks_list', { status: 'todo', limit: 50 }),
        gather('tasks_list', { status: 'doing', limit: 50 }),
        gather('agenda_range', { start: date, end: `${date}T23:59:59` }),
      ]);
      const text = [
        `Help me plan ${date}. Propose an order for the day: the perimeter tasks first, each task within its timebox (minutes), the checklist items the day requires, and stop in time for the bedtime targets (in bed and lights out). Ask before changing anything; then make the changes with the tools (tasks_update_status, checklist_toggle, tasks_create).`,
        section('The day', day),
        section('Open tasks', todo),
        section('Tasks in progress', doing),
        section('On the agenda', agenda),
      ].join('\n\n');
      return { description: `Plan ${date}`, messages: [userMessage(text)] };
    },
  },
  {
    name: 'weekly_review',
    title: 'Weekly review',
    description:
      "Reviews a week (last week by default) with the person: days completed, checklist progress, mood, energy and sleep, training and other agenda entries, spending by category, what rose and fell against the week before with the streaks, the strongest insights, and the journal.",
    needs: 'planning:read',
    argsSchema: { date: dateArg.describe('Any day of the week to review (YYYY-MM-DD); last week when absent.') },
    async build(args, ctx) {
      const monday = mondayOf(args.date ?? addDays(await userToday(ctx), -7));
      const sunday = addDays(monday, 6);
      const gather = gatherer(ctx);
      const [week, agenda, spending, training, summary, insights] = await Promise.all([
        gather('planning_get_week', { date: monday }),
        gather('agenda_range', { start: monday, end: `${sunday}T23:59:59` }),
        gather('finance_spending_summary', { start: monday, end: sunday }),
        gather('training_sessions', { start: monday, end: sunday }),
        gather('insights_weekly_summary', { date: monday }),
        gather('insights_list', { limit: 5 }),
      ]);
      // The journal day by day (the week's seven days at most).
      const dayIds = 'value' in week ? (week.value as { days: { id: string }[] }).days.map((day) => day.id) : [];
      const entries = await Promise.all(dayIds.map((dayId) => gather('journal_today', { dayId })));
      const missing = entries.find((entry): entry is Extract<Gathered, { missing: string }> => 'missing' in entry);
      const journal: Gathered = missing ?? { tool: 'journal_today', value: entries.map((entry) => ('value' in entry ? entry.value : null)) };
      const text = [
        `Let's review the week of ${monday} to ${sunday}. Say what went well and what did not (completion, sleep and mood against the bedtime targets, training volume, spending, what rose and fell and the streaks), mention the insights that bear on it, ask me what I want to change, and turn the answers into tasks for next week with tasks_create.`,
        section('Completion, mood, energy and sleep by day', week),
        section('Agenda (training, reading, meditation, people, deadlines, transactions)', agenda),
        section('Training sessions and volume', training),
        section('Spending by category', spending),
        section('What rose, what fell, streaks (against the week before)', summary),
        section('What my data says (strongest insights)', insights),
        section('Journal', journal),
      ].join('\n\n');
      return { description: `Weekly review of ${monday}`, messages: [userMessage(text)] };
    },
  },
  {
    name: 'log_workout',
    title: 'Log a workout',
    description: 'Guides logging a training session set by set: each exercise by name, its sets (reps × weight, RPE), then one training_log_session call.',
    needs: 'health:write',
    argsSchema: { exercises: z.string().max(500).optional().describe('The exercises planned, as the person says them (e.g. "bench press, squat").') },
    async build(args, ctx) {
      const date = await userToday(ctx);
      const planned = args.exercises ? `I planned: ${args.exercises}.` : 'Ask me which exercises I did.';
      const text = [
        `Let's log my workout of today (${date}) set by set. ${planned}`,
        '1. For each exercise, find it in my catalog with training_search_exercises (use its exact name or id; if several match, ask me which).',
        '2. Ask me for each set in order: reps and weight in kg (and RPE if I know it). Repeat the set back in one short line.',
        '3. When I say I am done, call training_log_session once with every exercise and its sets.',
        '4. Then show me, for each exercise, what training_exercise_history says about my estimated 1RM and volume trend.',
      ].join('\n');
      return { description: 'Log a workout set by set', messages: [userMessage(text)] };
    },
  },
];

/** Registers the prompts the grant allows (each needs its scope). */
export function registerPrompts(server: McpServer, granted: readonly string[], context: () => ToolContext): void {
  for (const prompt of CONNECTOR_PROMPTS) {
    if (!allows(granted, prompt.needs)) continue;
    server.registerPrompt(prompt.name, { title: prompt.title, description: prompt.description, argsSchema: prompt.argsSchema }, (args) =>
      prompt.build(args as Record<string, string | undefined>, context()),
    );
  }
}
