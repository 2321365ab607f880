import { z } from 'zod';
import { expectedVersionArg, userToday } from './common-arguments.js';
import { todayIn } from '../../../core/dates.js';
import { boundedInt, optionalText, requiredText } from '../../../core/validation/tool-arguments.js';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { WeekService } from '../../../planning/week.service.js';
import { SettingsService } from '../../../settings/settings.service.js';
import type { Person } from '../../../social/person.entity.js';
import { PersonService } from '../../../social/person.service.js';
import type { SocialHappening } from '../../../social/social-happening.entity.js';
import { SocialHappeningService } from '../../../social/social-happening.service.js';
import { createSocialLoaders } from '../../../social/social.loaders.js';
import { IDS_MAX, NAME_MAX, NOTES_MAX, RELATIONSHIP_MAX, TITLE_MAX } from '../../../social/social.types.js';
import { idOrName, pickByName } from './by-name.js';
import { isoDateTime, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, SETS_STATE, type ConnectorTool, type ToolContext } from './tool.js';

/** People searched for a name at most (the service's page). */
const NAME_MATCHES = MAX_PAGE_SIZE;
/** Happenings people_last_seen answers at most. */
const LAST_SEEN_MAX = 20;
/** A happening logged without its end lasts this long. */
const DEFAULT_HAPPENING_MINUTES = 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The people a name may mean: the user's people whose name contains it (one bounded search, which also
 * matches notes), or, when none does, some of the user's people as the candidates pickByName lists.
 */
async function candidatesFor(ctx: ToolContext, service: PersonService, name: string): Promise<Person[]> {
  const wanted = name.trim().toLocaleLowerCase();
  const found = (await service.list(ctx.userId, { search: name, limit: NAME_MATCHES })).items.filter((p) => p.name.toLocaleLowerCase().includes(wanted));
  return found.length ? found : (await service.list(ctx.userId, { limit: 20 })).items;
}

const personNamed = async (ctx: ToolContext, service: PersonService, name: string): Promise<Person> =>
  pickByName('Person', await candidatesFor(ctx, service, name), name, (p) => p.name, (p) => p.id);

/** The person given by id (another user's answers NOT_FOUND, like a missing one) or by name. */
async function personOf(ctx: ToolContext, service: PersonService, given: { personId?: string; person?: string }): Promise<Person> {
  if (given.personId) return service.get(ctx.userId, given.personId);
  const id = await idOrName('Person', { name: given.person }, () => candidatesFor(ctx, service, given.person!), (p) => p.name, (p) => p.id);
  return service.get(ctx.userId, id);
}

/** `version` is what people_update's `expectedVersion` takes back (docs/concurrency.md). */
const personVersion = z.number().describe('Goes up with every change: send it back as expectedVersion so a change made meanwhile is not overwritten.');
const personOut = z.object({ id: z.string(), name: z.string(), relationshipType: z.string().nullable(), notes: z.string().nullable(), createdAt: isoDateTime, version: personVersion });
const personJson = (p: Person) => ({ id: p.id, name: p.name, relationshipType: p.relationshipType ?? null, notes: p.notes ?? null, createdAt: p.createdAt.toISOString(), version: p.version });

const happeningOut = z.object({ id: z.string(), title: z.string(), startTime: isoDateTime, endTime: isoDateTime, location: z.string().nullable() });
const happeningJson = (h: SocialHappening) => ({ id: h.id, title: h.title, startTime: h.startTime.toISOString(), endTime: h.endTime.toISOString(), location: h.location ?? null });

const personIdArg = z.string().uuid().optional().describe("The person's id.");
const personArg = z.string().min(1).max(NAME_MAX).optional().describe("The person's name (instead of personId): exact, or a unique part of it.");
const relationshipType = optionalText('relationshipType', RELATIONSHIP_MAX);
const notes = optionalText('notes', NOTES_MAX);

export const socialTools: ConnectorTool[] = [
  defineTool({
    name: 'people_find',
    mirrors: 'Query.people',
    title: 'Find people',
    description: `The user's people by name (search matches name and notes, any case; all of them when absent), alphabetical, each with when they were last seen (the latest past happening they were a guest of). Paginated: \`page\` from 1, \`limit\` default 20 (more than ${MAX_PAGE_SIZE} counts as ${MAX_PAGE_SIZE}).`,
    inputSchema: {
      search: z.string().max(200).optional().describe('Part of a name or of the notes.'),
      relationshipType: z.string().max(RELATIONSHIP_MAX).optional().describe('Exact relationship type, any case (friend, family …).'),
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).optional(),
    },
    outputSchema: {
      people: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          relationshipType: z.string().nullable(),
          version: personVersion,
          lastSeen: z.object({ happeningId: z.string(), title: z.string(), startTime: isoDateTime }).nullable(),
        }),
      ),
      meta: pageMetaOut,
    },
    area: 'people',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(PersonService).list(ctx.userId, { ...args, limit: args.limit ?? 20 });
      const lastSeen = await createSocialLoaders(ctx.em).lastSeenByPersonId.loadMany(page.items.map((p) => p.id));
      return {
        people: page.items.map((p, i) => {
          const seen = lastSeen[i];
          const last = seen && !(seen instanceof Error) ? seen : null;
          return {
            id: p.id,
            name: p.name,
            relationshipType: p.relationshipType ?? null,
            version: p.version,
            lastSeen: last ? { happeningId: last.id, title: last.title, startTime: last.startTime.toISOString() } : null,
          };
        }),
        meta: page.meta,
      };
    },
  }),
  defineTool({
    name: 'people_add',
    mirrors: 'Mutation.createPerson',
    title: 'Add a person',
    description: 'Adds a person to the user\'s circle, with an optional relationship type (friend, family, colleague …; stored lower case) and notes. A friend records friend_added.',
    inputSchema: { name: requiredText('name', NAME_MAX), relationshipType, notes },
    outputSchema: personOut.shape,
    area: 'people',
    annotations: ADDITIVE,
    async run(args, ctx) {
      return personJson(await ctx.service(PersonService).create(ctx.userId, args));
    },
  }),
  defineTool({
    name: 'people_update',
    mirrors: 'Mutation.updatePerson',
    title: 'Update a person',
    description:
      'Changes a person (by `personId` or by their current name in `person`): a new `name`, `relationshipType` or `notes` (null clears those two); arguments left out stay. Becoming a friend records friend_added. ' +
      'With `expectedVersion` (the `version` last read) a change made meanwhile is not overwritten: VERSION_CONFLICT answers the current person.',
    inputSchema: {
      personId: personIdArg,
      person: personArg,
      name: requiredText('name', NAME_MAX).optional().describe('The new name.'),
      relationshipType: relationshipType.nullable(),
      notes: notes.nullable(),
      expectedVersion: expectedVersionArg('person'),
    },
    outputSchema: personOut.shape,
    area: 'people',
    annotations: SETS_STATE,
    async run({ personId, person, expectedVersion, ...changes }, ctx) {
      const service = ctx.service(PersonService);
      const target = await personOf(ctx, service, { personId, person });
      const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      return personJson(await service.update(ctx.userId, target.id, given, expectedVersion));
    },
  }),
  defineTool({
    name: 'people_last_seen',
    mirrors: 'Query.person',
    title: 'When did I last see someone',
    description: `A person (by \`personId\` or name in \`person\`) and the happenings they were a guest of on the user's days up to today, most recent first (\`limit\` default 5, at most ${LAST_SEEN_MAX}); \`lastSeen\` is the start of the most recent, null when none.`,
    inputSchema: { personId: personIdArg, person: personArg, limit: boundedInt('limit', 1, LAST_SEEN_MAX).optional() },
    outputSchema: {
      person: z.object({ id: z.string(), name: z.string(), relationshipType: z.string().nullable(), version: personVersion }),
      lastSeen: isoDateTime.nullable(),
      happenings: z.array(happeningOut),
    },
    area: 'people',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const person = await personOf(ctx, ctx.service(PersonService), args);
      const today = await userToday(ctx);
      const page = await ctx.service(SocialHappeningService).list(ctx.userId, { personId: person.id, endDate: today, limit: args.limit ?? 5 });
      return {
        person: { id: person.id, name: person.name, relationshipType: person.relationshipType ?? null, version: person.version },
        lastSeen: page.items[0]?.startTime.toISOString() ?? null,
        happenings: page.items.map(happeningJson),
      };
    },
  }),
  defineTool({
    name: 'people_log_happening',
    mirrors: 'Mutation.createSocialHappening',
    title: 'Log time with people',
    description: `Records a social happening (a dinner, a call, a meeting) with its guests, each given by id or by name (an unknown or ambiguous name fails listing the candidates; add the person first with people_add). It goes on \`dayId\`, else on the user's day of \`startTime\` in their time zone; \`endTime\` defaults to ${DEFAULT_HAPPENING_MINUTES} minutes after \`startTime\`. Records no event.`,
    inputSchema: {
      title: requiredText('title', TITLE_MAX),
      startTime: z.string().datetime({ offset: true }).describe('ISO date-time with offset or Z.'),
      endTime: z.string().datetime({ offset: true }).optional().describe(`After startTime; ${DEFAULT_HAPPENING_MINUTES} minutes after it when absent.`),
      location: optionalText('location', TITLE_MAX),
      guests: z.array(z.string().min(1).max(NAME_MAX)).max(IDS_MAX).optional().describe("The user's people who were there: ids or names."),
      dayId: z.string().uuid().optional().describe("One of the user's days; the day of startTime when absent."),
    },
    outputSchema: { ...happeningOut.shape, dayId: z.string(), guests: z.array(z.object({ id: z.string(), name: z.string() })) },
    area: 'people',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const service = ctx.service(PersonService);
      const guests = new Map<string, Person>();
      for (const guest of args.guests ?? []) {
        const person = UUID.test(guest.trim()) ? await service.get(ctx.userId, guest.trim()) : await personNamed(ctx, service, guest);
        guests.set(person.id, person);
      }
      const start = new Date(args.startTime);
      const end = args.endTime ?? new Date(start.getTime() + DEFAULT_HAPPENING_MINUTES * 60_000).toISOString();
      const dayId = args.dayId ?? (await ctx.service(WeekService).ensureDay(ctx.userId, todayIn(await ctx.service(SettingsService).timezoneOf(ctx.userId), start))).id;
      const happening = await ctx.service(SocialHappeningService).create(ctx.userId, {
        dayId,
        title: args.title,
        startTime: args.startTime,
        endTime: end,
        location: args.location,
        guestIds: [...guests.keys()],
      });
      return { ...happeningJson(happening), dayId: happening.dayId, guests: [...guests.values()].map((p) => ({ id: p.id, name: p.name })) };
    },
  }),
];
