import { mondayOf } from '../../core/dates.js';
import { NotFoundError } from '../../core/errors.js';
import { bedtimeTargetsFor } from '../../planning/bedtime-targets.js';
import type { Week } from '../../planning/week.entity.js';
import { WeekService } from '../../planning/week.service.js';
import { SettingsService } from '../../settings/settings.service.js';
import type { UserSettings } from '../../settings/user-settings.entity.js';
import type { KindContext, ReminderKind, ReminderKindName, ReminderMessage, ReminderSpec } from '../reminder-kind.js';
import { addDays } from '../../core/dates.js';
import { inHowLong, localClock, localInstant, nextDaily, shortDate } from './local-time.js';

/** The bedtime targets of one day: the stress-week values when the day's week is a stress week. */
export interface DayTargets {
  wakeTime: string;
  inBedTime: string;
  lightsOutTime: string;
  stressWeek: boolean;
}

/**
 * Reads the targets of days, the settings once and each week once per reader (a kind's call looks at a
 * few days). A day whose week was never generated uses the normal values (it cannot be a stress week).
 */
export function targetsReader(ctx: KindContext, userId: string): (date: string) => Promise<DayTargets> {
  let settings: Promise<UserSettings> | undefined;
  const weeks = new Map<string, Promise<Week | null>>();
  const weekOf = (monday: string) => {
    let week = weeks.get(monday);
    if (!week) {
      week = ctx.service(WeekService).findByStart(userId, monday).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      weeks.set(monday, week);
    }
    return week;
  };
  return async (date) => {
    settings ??= ctx.service(SettingsService).get(userId);
    const [s, week] = await Promise.all([settings, weekOf(mondayOf(date))]);
    return bedtimeTargetsFor(week, s);
  };
}

/**
 * A bedtime target before noon is after midnight: the night of `date` ends on the next calendar date
 * (lights out at 00:30 on Friday's night is Saturday 00:30). Targets from noon on are on `date`.
 */
export function bedtimeInstant(date: string, time: string, zone: string): Date {
  return localInstant(time < '12:00' ? addDays(date, 1) : date, time, zone);
}

type BedtimeKindName = Extract<ReminderKindName, 'bedtime_in_bed' | 'bedtime_lights_out'>;

const WORDING: Record<BedtimeKindName, { field: 'inBedTime' | 'lightsOutTime'; title: string; target: string }> = {
  bedtime_in_bed: { field: 'inBedTime', title: 'Time to get in bed', target: 'In bed by' },
  bedtime_lights_out: { field: 'lightsOutTime', title: 'Lights out', target: 'Lights out at' },
};

/**
 * `bedtime_in_bed` / `bedtime_lights_out`: each day at the "in bed" / "lights out" target minus
 * `offsetMinutes`, the stress-week value when that day's week is a stress week (spec rule 7). Keyed by
 * the day (`2026-11-27`). A change of the targets or of the week's stress flag applies from the next
 * occurrence computed (the one already scheduled keeps its time); the message names the time it is
 * sent for.
 */
function bedtimeKind(name: BedtimeKindName): ReminderKind {
  const wording = WORDING[name];
  return {
    name,
    target: null,
    localTime: 'unused',
    async checkTarget() {},
    async nextOccurrence(ctx, spec, after) {
      const targets = targetsReader(ctx, spec.userId);
      return nextDaily(after, spec.offsetMinutes, ctx.timezone, async (date) => bedtimeInstant(date, (await targets(date))[wording.field], ctx.timezone));
    },
    async stillDue() {
      return true;
    },
    async message(ctx: KindContext, spec: ReminderSpec, occurrence): Promise<ReminderMessage> {
      const { stressWeek } = await targetsReader(ctx, spec.userId)(occurrence.key);
      const at = localClock(new Date(occurrence.dueAt.getTime() + spec.offsetMinutes * 60_000), ctx.timezone);
      const when = spec.offsetMinutes > 0 ? ` (${inHowLong(spec.offsetMinutes)})` : '';
      const body = `${wording.target} ${at}${when}${stressWeek ? ', the stress-week target' : ''}. Night of ${shortDate(occurrence.key)}.`;
      return { title: wording.title, body, url: '/api/v1/settings' };
    },
  };
}

export const bedtimeInBedKind = bedtimeKind('bedtime_in_bed');
export const bedtimeLightsOutKind = bedtimeKind('bedtime_lights_out');
