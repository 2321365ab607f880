import { z } from 'zod';
import { DateTime } from 'luxon';
import { SettingsService } from '../../../settings/settings.service.js';
import { todayIn } from '../../../core/dates.js';
import { defineTool, READ_ONLY, type ConnectorTool } from './tool.js';

export const systemTools: ConnectorTool[] = [
  defineTool({
    name: 'system_get_current_datetime',
    title: 'Current date and time',
    description: "The current instant in UTC and in the user's time zone (their `timezone` setting), with the user's today.",
    inputSchema: {},
    outputSchema: { utc: z.string(), timezone: z.string(), local: z.string(), date: z.string(), weekday: z.string() },
    area: null,
    annotations: { ...READ_ONLY, idempotentHint: false },
    async run(_args, ctx) {
      const now = new Date();
      const timezone = await ctx.service(SettingsService).timezoneOf(ctx.userId);
      // `2026-11-24T01:41:16.123+01:00`: the instant as wall-clock time in the zone, with its offset.
      const local = DateTime.fromJSDate(now, { zone: timezone });
      return { utc: now.toISOString(), timezone, local: local.toISO()!, date: todayIn(timezone, now), weekday: local.setLocale('en-US').weekdayLong! };
    },
  }),
];
