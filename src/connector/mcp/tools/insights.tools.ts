import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { pageArgs } from '../../../core/validation/tool-arguments.js';
import type { Insight } from '../../../insights/insight.entity.js';
import { InsightService } from '../../../insights/insight.service.js';
import { InsightMetric, METRICS, metricOf } from '../../../insights/metrics.js';
import { allows, type ScopeArea } from '../../scopes/connector-scopes.js';
import { areaField } from '../../scopes/answer-areas.js';
import { isoDate, isoDateTime, pageMetaOut } from './outputs.js';
import { defineTool, READ_ONLY, type ConnectorTool, type ToolContext } from './tool.js';

/**
 * Insights relate measures of several areas (sleep is health's, spending money's): an assistant sees a
 * finding only when its grant reads both of its measures, and a summary's lines only for the areas it
 * reads (each line carries its `area`, which the answer filter honours).
 */
const readable = (ctx: ToolContext) => METRICS.filter((m) => allows(ctx.granted, `${m.area as ScopeArea}:read`)).map((m) => m.key);

const metricArg = z.enum(Object.values(InsightMetric) as [InsightMetric, ...InsightMetric[]]);
const dateArg = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD');

const insightOut = z.object({
  id: z.string(),
  sentence: z.string().describe('The finding in a plain sentence, with its days and q-value.'),
  condition: metricArg,
  outcome: metricArg,
  lag: z.number().describe('Days from the condition day to the outcome day (0-2).'),
  rho: z.number().describe("Spearman's rank correlation."),
  n: z.number().describe('Pairs of days.'),
  p: z.number(),
  q: z.number().describe('Benjamini–Hochberg adjusted p-value.'),
  threshold: z.number(),
  effect: z.number().describe('Mean outcome on condition days minus on the others.'),
  days: z.array(isoDate).describe('The condition days the finding rests on.'),
  computedAt: isoDateTime,
});

function insightJson(insight: Insight) {
  return {
    id: insight.id,
    sentence: insight.sentence,
    condition: insight.condition,
    outcome: insight.outcome,
    lag: insight.lag,
    rho: insight.rho,
    n: insight.n,
    p: insight.p,
    q: insight.q,
    threshold: insight.threshold,
    effect: insight.effect,
    days: insight.days,
    computedAt: insight.computedAt.toISOString(),
  };
}

const areaOut = z.string().describe('The area whose grant reads this line.');

export const insightsTools: ConnectorTool[] = [
  defineTool({
    name: 'insights_list',
    mirrors: 'Query.insights',
    title: 'Insights',
    description: `What the user's data says: relations between daily measures (sleep, bedtime, mood, energy, steps, water, training, reading, tasks, spending, time with people) found each night with Spearman correlations at lags of 0-2 days and Benjamini–Hochberg false-discovery control, strongest first; each with a plain sentence, its numbers and the days it rests on. Only findings whose two measures the grant reads. Paginated (\`limit\` up to ${MAX_PAGE_SIZE}).`,
    inputSchema: { ...pageArgs, metric: metricArg.optional().describe('Only findings about this measure.') },
    outputSchema: { insights: z.array(insightOut), meta: pageMetaOut },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(InsightService).list(ctx.userId, { ...args, within: readable(ctx) });
      return { insights: page.items.map(insightJson), meta: page.meta };
    },
  }),
  defineTool({
    name: 'insights_weekly_summary',
    mirrors: 'Query.insightsWeeklySummary',
    title: 'Weekly summary',
    description: "A week (the current one by default, through today) against the same weekdays of the week before: each measure's daily mean, what rose and what fell (with a sentence), and the streaks alive at its end (days in a row logged or done). Only the measures of areas the grant reads.",
    inputSchema: { date: dateArg.optional().describe('Any day of the week (YYYY-MM-DD); the current week when absent.') },
    outputSchema: {
      weekStart: isoDate,
      weekEnd: isoDate,
      through: isoDate.describe('The last day summarised.'),
      metrics: z.array(
        z.object({
          area: areaOut,
          metric: metricArg,
          label: z.string(),
          thisWeek: z.number().nullable(),
          previousWeek: z.number().nullable(),
          change: z.number().nullable(),
          direction: z.enum(['rose', 'fell', 'steady', 'unknown']),
          daysLogged: z.number(),
          sentence: z.string().nullable(),
        }),
      ),
      streaks: z.array(z.object({ area: areaOut, metric: metricArg, label: z.string(), days: z.number(), through: isoDate, sentence: z.string() })),
    },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const summary = await ctx.service(InsightService).weeklySummary(ctx.userId, args.date);
      return {
        weekStart: summary.weekStart,
        weekEnd: summary.weekEnd,
        through: summary.through,
        metrics: summary.metrics.map((m) => ({ area: metricOf(m.metric).area, ...m })),
        streaks: summary.streaks.map((s) => ({ area: metricOf(s.metric).area, ...s })),
      };
    },
  }),
  defineTool({
    name: 'insights_this_day_last_year',
    mirrors: 'Query.thisDayLastYear',
    title: 'This day last year',
    description: 'What the user logged on a date (today by default) a year before: sleep, mood, steps, reading, training, spending by category and so on. Only the measures of areas the grant reads.',
    inputSchema: { date: dateArg.optional().describe('YYYY-MM-DD; today when absent.') },
    outputSchema: {
      date: isoDate,
      lastYearDate: isoDate,
      values: z.array(z.object({ area: areaOut, metric: metricArg, label: z.string(), value: z.number(), text: z.string() })),
      spending: areaField('money', z.array(z.object({ category: z.string(), amount: z.number() })).describe('By category; left out without money:read.')),
    },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const day = await ctx.service(InsightService).thisDayLastYear(ctx.userId, args.date);
      return { date: day.date, lastYearDate: day.lastYearDate, values: day.values.map((v) => ({ area: metricOf(v.metric).area, ...v })), spending: day.spending };
    },
  }),
];
