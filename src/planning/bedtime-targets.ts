import type { UserSettings } from '../settings/user-settings.entity.js';
import type { Week } from './week.entity.js';

/** Spec rule 7: the bedtime targets in effect for a day are the stress-week ones in a stress week. */
export function bedtimeTargetsFor(week: Pick<Week, 'isStressWeek'> | null | undefined, settings: UserSettings) {
  const stressWeek = !!week?.isStressWeek;
  return stressWeek
    ? { wakeTime: settings.stressWeekWakeTime, inBedTime: settings.stressWeekInBedTime, lightsOutTime: settings.stressWeekLightsOutTime, stressWeek }
    : { wakeTime: settings.wakeTime, inBedTime: settings.inBedTime, lightsOutTime: settings.lightsOutTime, stressWeek };
}
