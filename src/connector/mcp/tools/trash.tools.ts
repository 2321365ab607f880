import { z } from 'zod';
import { NotFoundError } from '../../../core/errors.js';
import { pageArgs } from '../../../core/validation/tool-arguments.js';
import { TrashService } from '../../../trash/trash.service.js';
import { TRASH_KIND_AREAS } from '../../scopes/answer-areas.js';
import { allows, type Scope } from '../../scopes/connector-scopes.js';
import { deletedOut, isoDateTime, pageMetaOut } from './outputs.js';
import { insufficientScope } from './run-tool.js';
import { defineTool, READ_ONLY, REMOVES, SETS_STATE, type ConnectorTool, type ToolContext } from './tool.js';

const trashIdArg = z.string().uuid().describe("The trash entry's id (from trash_list), not the record's.");

const entryOut = z.object({
  id: z.string().describe("The trash entry's id."),
  kind: z.string().describe('task, projectTask, note, record, person, transaction, habit or file.'),
  recordId: z.string().describe('The id the record had, and has again once restored.'),
  label: z.string(),
  deletedAt: isoDateTime,
  purgeAt: isoDateTime.describe('When it is deleted for good.'),
});

/** The kinds whose area the grant can read (the list shows only those). */
const readableKinds = (ctx: ToolContext) => Object.entries(TRASH_KIND_AREAS).filter(([, area]) => allows(ctx.granted, `${area}:read`)).map(([kind]) => kind);

/**
 * A trash entry belongs to its kind's area: acting on it needs that area's write scope, checked once the
 * entry is found (before anything is written). An entry of a kind the connector does not know is not
 * the assistant's: not found, like a missing one.
 */
function allowWrite(ctx: ToolContext) {
  return (kind: string) => {
    const area = TRASH_KIND_AREAS[kind];
    if (!area) throw new NotFoundError('Trash entry');
    const needed: Scope = `${area}:write`;
    if (!allows(ctx.granted, needed)) throw insufficientScope(needed);
  };
}

export const trashTools: ConnectorTool[] = [
  defineTool({
    name: 'trash_list',
    mirrors: 'Query.trash',
    title: 'List the trash',
    description:
      'Deleted records that can still be restored, newest first: tasks, project cards, notes, database records, people, transactions, habits and files. ' +
      "Only the kinds of the areas this connection may read are listed. Each is kept for the person's retention (30 days by default) until purgeAt.",
    inputSchema: { ...pageArgs },
    outputSchema: { entries: z.array(entryOut), meta: pageMetaOut },
    // Each entry's area is its kind's: the grant narrows the list (readableKinds), so the tool needs no scope of its own.
    area: null,
    annotations: READ_ONLY,
    async run(args, ctx) {
      const page = await ctx.service(TrashService).list(ctx.userId, args, readableKinds(ctx));
      return {
        entries: page.items.map((e) => ({ id: e.id, kind: e.kind, recordId: e.recordId, label: e.label, deletedAt: e.deletedAt.toISOString(), purgeAt: e.purgeAt.toISOString() })),
        meta: page.meta,
      };
    },
  }),
  defineTool({
    name: 'trash_restore',
    mirrors: 'Mutation.restoreFromTrash',
    title: 'Restore from the trash',
    description:
      'Puts a deleted record back (its trash entry id from trash_list) with its id and what its delete took with it. Needs the write scope of the record\'s area. ' +
      'Refused (VALIDATION_ERROR, details.rule) with trash_parent_gone when what it belonged to is deleted, trash_conflict when another record holds its place, or the cap of a full parent.',
    inputSchema: { trashId: trashIdArg },
    outputSchema: { kind: z.string(), recordId: z.string() },
    area: null,
    annotations: SETS_STATE,
    async run(args, ctx) {
      return ctx.service(TrashService).restore(ctx.userId, args.trashId, allowWrite(ctx));
    },
  }),
  defineTool({
    name: 'trash_delete',
    mirrors: 'Mutation.deleteFromTrash',
    title: 'Delete from the trash for good',
    description: 'Deletes one trash entry for good (a file\'s stored bytes with it): it can no longer be restored. Needs the write scope of the record\'s area.',
    inputSchema: { trashId: trashIdArg },
    outputSchema: deletedOut,
    area: null,
    annotations: REMOVES,
    async run(args, ctx) {
      return ctx.service(TrashService).deleteForever(ctx.userId, args.trashId, allowWrite(ctx));
    },
  }),
];
