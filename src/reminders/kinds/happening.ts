import { NotFoundError, nullIfNotFound } from '../../core/errors.js';
import { SocialHappeningService } from '../../social/social-happening.service.js';
import type { KindContext, ReminderKind, ReminderSpec } from '../reminder-kind.js';
import { peopleNames } from './kinds.queries.js';
import { clip, inHowLong, listed, localClock, shortDateTime } from './local-time.js';
import { beforeMoment, requireTargetId, targetKey } from './targets.js';

/** Guests named in a message. */
const GUESTS_SHOWN = 3;

async function happeningOf(ctx: KindContext, spec: ReminderSpec) {
  return spec.targetId ? nullIfNotFound(ctx.service(SocialHappeningService).get(spec.userId, spec.targetId)) : null;
}

const keyOf = (h: { id: string; startTime: Date }) => targetKey(h.id, h.startTime.toISOString());

/**
 * `happening`: `offsetMinutes` before a social happening starts (its `startTime`, an instant). Keyed
 * `<happeningId>@<start instant>`: moving it makes a new occurrence and the old one is no longer due;
 * none once it is deleted (happenings have no cancelled state: deleting one is cancelling it).
 */
export const happeningKind: ReminderKind = {
  name: 'happening',
  target: 'happening',
  localTime: 'unused',

  async checkTarget(ctx, spec) {
    const id = requireTargetId(spec.targetId, 'happening');
    if (!(await nullIfNotFound(ctx.service(SocialHappeningService).get(spec.userId, id)))) throw new NotFoundError('SocialHappening', { field: 'targetId' });
  },

  async nextOccurrence(ctx, spec, after) {
    const happening = await happeningOf(ctx, spec);
    return happening ? beforeMoment(happening.startTime, spec.offsetMinutes, after, keyOf(happening)) : null;
  },

  async stillDue(ctx, spec, occurrence) {
    const happening = await happeningOf(ctx, spec);
    return !!happening && keyOf(happening) === occurrence.key;
  },

  async message(ctx, spec) {
    const happening = await happeningOf(ctx, spec);
    if (!happening) return { title: 'A happening is coming up', body: 'It was moved or removed.' };
    const guests = await peopleNames(ctx.em, spec.userId, happening.guestIds, GUESTS_SHOWN);
    const more = happening.guestIds.length - guests.length;
    const lines = [
      `${shortDateTime(happening.startTime, ctx.timezone)}-${localClock(happening.endTime, ctx.timezone)}${spec.offsetMinutes > 0 ? ` (${inHowLong(spec.offsetMinutes)})` : ''}`,
    ];
    if (happening.location) lines.push(`At ${clip(happening.location, 100)}`);
    if (guests.length) lines.push(`With ${listed(guests, GUESTS_SHOWN)}${more > 0 ? ` (+${more} more)` : ''}`);
    return { title: clip(happening.title, 80), body: lines.join('\n'), url: `/api/v1/social-happenings/${happening.id}` };
  },
};
