import { z } from 'zod';
import { AmbiguousNameError, ValidationError } from '../../../core/errors.js';
import { MAX_PAGE_SIZE, type Page, type PageArgs } from '../../../core/pagination.js';
import { boundedInt, optionalText, requiredText } from '../../../core/validation/tool-arguments.js';
import { TEXT_MESSAGES } from '../../../core/validation/text.js';
import { DATABASE_NAME_MAX } from '../../../brain/databases/brain-data.types.js';
import { listDatabases } from '../../../brain/databases/database.service.js';
import type { PropertyDefinition } from '../../../brain/databases/properties.js';
import { createRecord } from '../../../brain/databases/record.service.js';
import { BrainFolderService } from '../../../brain/notes/brain-folder.service.js';
import type { BrainNote } from '../../../brain/notes/brain-note.entity.js';
import { BrainNoteService } from '../../../brain/notes/brain-note.service.js';
import { BrainTagService } from '../../../brain/notes/brain-tag.service.js';
import { FOLDER_NAME_MAX, NOTE_CONTENT_MAX, NOTE_TAGS_MAX, NOTE_TAGS_MESSAGE, NOTE_TITLE_MAX, TAG_NAME_MAX } from '../../../brain/notes/brain-notes.types.js';
import { BrainSearchService } from '../../../brain/search/brain-search.service.js';
import { BRAIN_ENTITY_TYPES, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_LIMIT_MESSAGES, SEARCH_QUERY_MAX } from '../../../brain/search/brain-search.types.js';
import { idOrName, pickByName } from './by-name.js';
import { isoDateTime, pageMetaOut } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, type ConnectorTool, type ToolContext } from './tool.js';

/** brain_read_note answers at most this many characters of a note at a time (`offset` reads on). */
export const NOTE_READ_CHUNK = 20_000;
/** A name matches among at most this many notes (their titles only). */
const TITLE_CANDIDATES = 200;
/** Folders and tags looked up by name: read through their lists, at most this many pages. */
const NAME_PAGES_MAX = 10;

const entityTypes = BRAIN_ENTITY_TYPES as [string, ...string[]];
const noteId = z.string().uuid().optional().describe('The note’s id; or give `title`.');
const noteTitle = requiredText('title', NOTE_TITLE_MAX).optional().describe('The note’s title (exact, ignoring case, or a unique part of it) when no `noteId` is given.');
const named = z.object({ id: z.string(), name: z.string() });

/** Every item of a paginated list, read page by page (bounded): the user's folders or tags to pick a name among. */
async function everyItem<T>(load: (args: PageArgs) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= NAME_PAGES_MAX; page++) {
    const result = await load({ page, limit: MAX_PAGE_SIZE });
    items.push(...result.items);
    if (items.length >= result.meta.total || result.items.length < MAX_PAGE_SIZE) break;
  }
  return items;
}

/**
 * The note meant by `noteId` or `title`: an exact title (ignoring case) or the one title containing it.
 * None: NOT_FOUND with the most recently edited notes as candidates; several: AMBIGUOUS_NAME.
 */
async function noteIdOf(ctx: ToolContext, given: { noteId?: string; title?: string }): Promise<string> {
  const notes = ctx.service(BrainNoteService);
  return idOrName(
    'Note',
    { id: given.noteId, name: given.title },
    async () => {
      const found = await notes.findByTitle(ctx.userId, given.title!, TITLE_CANDIDATES);
      if (found.length) return found;
      // Nothing holds the words: the recent notes are listed so the assistant can ask which one.
      return (await notes.list(ctx.userId, { limit: 20 })).items.map((n) => ({ id: n.id, title: n.title }));
    },
    (n) => n.title,
    (n) => n.id,
  );
}

/** `text` cut at `end`, never between the two halves of a surrogate pair. */
function cutAt(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

function noteSummary(note: BrainNote) {
  return { id: note.id, title: note.title, length: note.content.length, folderId: note.folderId ?? null, tagIds: note.tagIds, updatedAt: note.updatedAt.toISOString(), version: note.version };
}
/** A note's version: the apps send it back on their edits (docs/concurrency.md); appends need none, each lands. */
const noteVersion = z.number().describe('Goes up with every change of the note, here or in the apps.');
const noteSummaryOut = { id: z.string(), title: z.string(), length: z.number().describe('Characters of content.'), folderId: z.string().nullable(), tagIds: z.array(z.string()), updatedAt: isoDateTime, version: noteVersion };

/**
 * Record values keyed by property key or by property name (exact, ignoring case): each becomes its
 * key. A name two properties share is AMBIGUOUS_NAME; anything else stays as given, for the record
 * service to refuse (`unknown property …`).
 */
function valuesByKey(properties: PropertyDefinition[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [given, value] of Object.entries(values)) {
    let key = given;
    if (!properties.some((p) => p.key === given)) {
      const wanted = given.trim().toLocaleLowerCase();
      const matches = properties.filter((p) => p.name.trim().toLocaleLowerCase() === wanted);
      if (matches.length > 1) {
        const candidates = matches.map((p) => ({ id: p.key, name: p.name }));
        throw new AmbiguousNameError(`${matches.length} properties are named "${given}"; give the property key`, { name: given, candidates });
      }
      if (matches.length === 1) key = matches[0]!.key;
    }
    if (key in out) throw new ValidationError('Invalid record values', [{ path: ['values', given], message: `${given} names property ${key}, given twice` }]);
    out[key] = value;
  }
  return out;
}

const propertyOut = z.object({ key: z.string(), name: z.string(), type: z.string(), options: z.array(z.string()).nullable() });

export const brainNoteTools: ConnectorTool[] = [
  defineTool({
    name: 'brain_search',
    mirrors: 'Query.brainSearch',
    title: 'Search the Brain',
    description:
      `Full-text search over the user's Brain: notes, databases, database records and forms, best match first. Every word must match (as a word or the start of one). ` +
      `Each hit has its type, id, title and a snippet with the matches inside <mark>…</mark>. At most \`limit\` hits (default ${SEARCH_LIMIT_DEFAULT}, at most ${SEARCH_LIMIT_MAX}).`,
    inputSchema: {
      q: z.string({ error: TEXT_MESSAGES.string('q') }).max(SEARCH_QUERY_MAX, TEXT_MESSAGES.tooLong('q', SEARCH_QUERY_MAX)).describe('The words to find.'),
      type: z.enum(entityTypes, { error: `type must be one of ${BRAIN_ENTITY_TYPES.join(', ')}` }).optional().describe(`Only this type: ${BRAIN_ENTITY_TYPES.join(', ')}.`),
      limit: z
        .number({ error: SEARCH_LIMIT_MESSAGES.int })
        .int(SEARCH_LIMIT_MESSAGES.int)
        .min(1, SEARCH_LIMIT_MESSAGES.min)
        .max(SEARCH_LIMIT_MAX, SEARCH_LIMIT_MESSAGES.max)
        .optional(),
    },
    outputSchema: {
      results: z.array(z.object({ type: z.string(), id: z.string(), title: z.string(), snippet: z.string().describe('HTML-escaped, matches in <mark>.'), rank: z.number() })),
    },
    area: 'journal',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const hits = await ctx.service(BrainSearchService).search(ctx.userId, { q: args.q, type: args.type, limit: args.limit });
      return { results: hits.map((h) => ({ type: h.type, id: h.id, title: h.title, snippet: h.snippet, rank: h.rank })) };
    },
  }),
  defineTool({
    name: 'brain_read_note',
    mirrors: 'Query.brainNote',
    title: 'Read a Brain note',
    description:
      `A note by id or by title: its Markdown content, folder and tags. At most ${NOTE_READ_CHUNK} characters of content are answered at once, from \`offset\` (default 0); ` +
      '`truncated` says more follows and `nextOffset` where to read on.',
    inputSchema: {
      noteId,
      title: noteTitle,
      offset: boundedInt('offset', 0, NOTE_CONTENT_MAX).optional().describe('The first character to answer (default 0).'),
    },
    outputSchema: {
      id: z.string(),
      title: z.string(),
      content: z.string().describe('Markdown, from `offset`.'),
      offset: z.number(),
      length: z.number().describe('Characters of the whole content.'),
      truncated: z.boolean(),
      nextOffset: z.number().nullable(),
      folder: named.nullable(),
      tags: z.array(named),
      createdAt: isoDateTime,
      updatedAt: isoDateTime,
      version: noteVersion,
    },
    area: 'journal',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const id = await noteIdOf(ctx, args);
      const note = await ctx.service(BrainNoteService).get(ctx.userId, id);
      const offset = Math.min(args.offset ?? 0, note.content.length);
      const end = cutAt(note.content, offset + NOTE_READ_CHUNK);
      const folder = note.folderId ? await ctx.service(BrainFolderService).get(ctx.userId, note.folderId) : null;
      const tags = await ctx.service(BrainTagService).byIds(ctx.userId, note.tagIds);
      return {
        id: note.id,
        title: note.title,
        content: note.content.slice(offset, end),
        offset,
        length: note.content.length,
        truncated: end < note.content.length,
        nextOffset: end < note.content.length ? end : null,
        folder: folder ? { id: folder.id, name: folder.name } : null,
        tags: tags.map((t) => ({ id: t.id, name: t.name })),
        createdAt: note.createdAt.toISOString(),
        updatedAt: note.updatedAt.toISOString(),
        version: note.version,
      };
    },
  }),
  defineTool({
    name: 'brain_create_note',
    mirrors: 'Mutation.createBrainNote',
    title: 'Create a Brain note',
    description:
      'A new Markdown note (content empty by default), at the top or in one of the user\'s folders (`folderId` or `folder` by name), with Brain tags (`tagIds` or `tags` by name; the tags must exist).',
    inputSchema: {
      title: requiredText('title', NOTE_TITLE_MAX),
      content: optionalText('content', NOTE_CONTENT_MAX).describe('Markdown.'),
      folderId: z.string().uuid().optional(),
      folder: requiredText('folder', FOLDER_NAME_MAX).optional().describe('A folder’s name, when no `folderId` is given.'),
      tagIds: z.array(z.string().uuid()).max(NOTE_TAGS_MAX, NOTE_TAGS_MESSAGE).optional(),
      tags: z.array(requiredText('tags', TAG_NAME_MAX)).max(NOTE_TAGS_MAX, NOTE_TAGS_MESSAGE).optional().describe('Brain tag names (with or besides `tagIds`).'),
    },
    outputSchema: noteSummaryOut,
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const folderId =
        args.folderId ??
        (args.folder === undefined
          ? undefined
          : pickByName('Folder', await everyItem((page) => ctx.service(BrainFolderService).list(ctx.userId, page)), args.folder, (f) => f.name, (f) => f.id).id);
      const tagIds = [...(args.tagIds ?? [])];
      if (args.tags?.length) {
        const all = await everyItem((page) => ctx.service(BrainTagService).list(ctx.userId, page));
        for (const name of args.tags) tagIds.push(pickByName('Tag', all, name, (t) => t.name, (t) => t.id).id);
      }
      if (tagIds.length > NOTE_TAGS_MAX) throw new ValidationError(NOTE_TAGS_MESSAGE, [{ path: ['tags'], message: NOTE_TAGS_MESSAGE }]);
      const note = await ctx.service(BrainNoteService).create(ctx.userId, { title: args.title, content: args.content, folderId, tagIds });
      return noteSummary(note);
    },
  }),
  defineTool({
    name: 'brain_append_to_note',
    mirrors: 'Mutation.updateBrainNote',
    title: 'Append to a Brain note',
    description:
      `Adds \`text\` at the end of a note (by id or title), on a new line unless the content is empty or already ends with one. ` +
      `The content stays within ${NOTE_CONTENT_MAX} characters: beyond it nothing is written (VALIDATION_ERROR). Concurrent appends each land.`,
    inputSchema: {
      noteId,
      title: noteTitle,
      text: requiredText('text', NOTE_CONTENT_MAX).describe('Markdown to add.'),
    },
    outputSchema: { ...noteSummaryOut, appended: z.number().describe('Characters added, the line break included.') },
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const { note, appended } = await ctx.service(BrainNoteService).append(ctx.userId, await noteIdOf(ctx, args), args.text);
      return { ...noteSummary(note), appended };
    },
  }),
  defineTool({
    name: 'brain_databases',
    mirrors: 'Query.brainDatabases',
    title: 'List Brain databases',
    description:
      "The user's Brain databases, newest first, each with its properties (key, name, type, select options): what brain_add_record needs. Paginated (`page` from 1, `limit` default 20, at most 100).",
    inputSchema: {
      page: z.number().int().min(1).optional(),
      limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
    },
    outputSchema: {
      databases: z.array(z.object({ id: z.string(), name: z.string(), properties: z.array(propertyOut), updatedAt: isoDateTime })),
      meta: pageMetaOut,
    },
    area: 'journal',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const all = await listDatabases(ctx.em, ctx.userId);
      const page = args.page ?? 1;
      const limit = args.limit ?? 20;
      const databases = all.slice((page - 1) * limit, page * limit).map((db) => ({
        id: db.id,
        name: db.name,
        properties: db.properties.map((p) => ({ key: p.key, name: p.name, type: p.type, options: p.options ?? null })),
        updatedAt: db.updatedAt,
      }));
      return { databases, meta: { page, limit, total: all.length } };
    },
  }),
  defineTool({
    name: 'brain_add_record',
    mirrors: 'Mutation.createBrainRecord',
    title: 'Add a record to a Brain database',
    description:
      'Adds a record to a database (`databaseId`, or `database` by name). `values` are keyed by property name or key and typed by the property ' +
      '(text, number, true/false, YYYY-MM-DD dates, one or several of a select\'s options, an http(s) URL, an email, a file id); a wrong value is refused naming the property. Answers the values by property key.',
    inputSchema: {
      databaseId: z.string().uuid().optional(),
      database: requiredText('database', DATABASE_NAME_MAX).optional().describe('The database’s name, when no `databaseId` is given.'),
      values: z.record(z.string(), z.unknown()).describe('Property name (or key) → value.'),
    },
    outputSchema: { id: z.string(), databaseId: z.string(), databaseName: z.string(), values: z.looseObject({}), createdAt: isoDateTime },
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      const all = await listDatabases(ctx.em, ctx.userId);
      const databaseId = await idOrName('Database', { id: args.databaseId, name: args.database }, async () => all, (d) => d.name, (d) => d.id);
      // Another user's id is not among the user's own: the record service answers it NOT_FOUND.
      const db = all.find((d) => d.id === databaseId.toLowerCase());
      const values = db ? valuesByKey(db.properties, args.values) : args.values;
      const record = await createRecord(ctx.em, ctx.userId, databaseId, { values });
      return { id: record.id, databaseId: record.databaseId, databaseName: db?.name ?? '', values: record.values, createdAt: record.createdAt };
    },
  }),
];
