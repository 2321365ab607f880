import { SettingsService } from '../../../settings/settings.service.js';
import { todayIn } from '../../../core/dates.js';
import { defineTool, READ_ONLY, type ConnectorTool } from './tool.js';

/** `2026-11-24T01:41:16.123+01:00`: the instant as wall-clock time in a zone, with its offset. */
export function localIso(now: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  const ms = String(now.getUTCMilliseconds()).padStart(3, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${ms}${offset}`;
}

export const systemTools: ConnectorTool[] = [
  defineTool({
    name: 'system_get_current_datetime',
    title: 'Current date and time',
    description: "The current instant in UTC and in the user's time zone (their `timezone` setting), with the user's today.",
    inputSchema: {},
    annotations: { ...READ_ONLY, idempotentHint: false },
    async run(_args, ctx) {
      const now = new Date();
      const timezone = await new SettingsService(ctx.em).timezoneOf(ctx.userId);
      const local = localIso(now, timezone);
      return {
        utc: now.toISOString(),
        timezone,
        local,
        date: todayIn(timezone, now),
        weekday: new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'long' }).format(now),
      };
    },
  }),
];
