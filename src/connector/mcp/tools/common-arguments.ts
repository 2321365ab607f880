import { z } from 'zod';
import { todayIn } from '../../../core/dates.js';
import { SettingsService } from '../../../settings/settings.service.js';
import type { ToolContext } from './tool.js';

/** Argument pieces many tools share, written once (ids of days, dates, instants). */

/** A day's id; the tools read the user's today when it is absent. */
export const dayIdArg = z.string().uuid().optional().describe("A day's id; the user's today when absent.");

/** An optional calendar date, YYYY-MM-DD (2026-02-30 is refused), named `field` in the refusal. */
export const dateArg = (field = 'date') => z.iso.date({ error: `${field} must be YYYY-MM-DD` }).optional();

/** An optional instant with its offset (or Z). */
export const dateTimeArg = (what: string) => z.string().datetime({ offset: true }).optional().describe(`${what}: ISO 8601 date-time.`);

/**
 * The version of `what` the assistant last read (docs/concurrency.md): the write is refused with
 * VERSION_CONFLICT and the current record if it changed since; absent, the write happens as always.
 */
export const expectedVersionArg = (what: string) =>
  z
    .number({ error: 'expectedVersion must be a number' })
    .int('expectedVersion must be a whole number')
    .min(1, 'expectedVersion must be at least 1')
    .optional()
    .describe(`The ${what}'s version last read: refused with VERSION_CONFLICT (and the current ${what}) if it changed since.`);

/** The user's today in their time zone, YYYY-MM-DD. */
export async function userToday(ctx: ToolContext): Promise<string> {
  return todayIn(await ctx.service(SettingsService).timezoneOf(ctx.userId));
}

/** The date a tool works on: the one given, or the user's today. */
export async function dateOrToday(ctx: ToolContext, date: string | undefined): Promise<string> {
  return date ?? userToday(ctx);
}
