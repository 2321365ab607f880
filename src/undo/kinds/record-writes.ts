import { LockMode, type EntityName } from '@mikro-orm/core';
import type { ServiceScope } from '../../core/request-services.js';
import { NotFoundError } from '../../core/errors.js';
import { TrashItem } from '../../trash/trash-item.entity.js';
import { TrashService } from '../../trash/trash.service.js';
import { UndoConflictError } from '../undo-errors.js';
import type { UndoArgs, UndoKind, UndoOffer } from '../undo-kind.js';

/** Arguments kept for the inverse besides the id (a card's project, a record's database). */
type Kept = Record<string, unknown>;

/**
 * The create and update of one record kind, declared once (src/undo/kinds/record-kinds.ts). The inverse
 * of the create is the domain's delete; of the update, the domain's update with the previous values of
 * the fields the write was given. Either is refused (409) when the record changed since the write.
 */
export interface RecordWrites {
  /** Kind names are `<name>_create` and `<name>_update`. */
  name: string;
  resource: string;
  entity: EntityName<object>;
  create: string;
  update?: string;
  /** The update's id argument. */
  idArg: string;
  /** Update arguments restored as they were: properties of the entity with the same name and the input's shape. Any other argument given makes that call offer no token. */
  fields: readonly string[];
  /** Update arguments that are not changes (the version a client read, applyTo); `keep` ones travel to the inverse. */
  ignore?: readonly string[];
  keep?: readonly string[];
  /** The previous value of a field when it is not the property itself (a merged JSON object: only the keys given). */
  previous?: Readonly<Record<string, (current: unknown, given: unknown) => unknown>>;
  /** A call with these arguments offers no token (a recurring create, a `following` edit). */
  skip?: (args: UndoArgs) => boolean;
  /** The trash kind (docs/trash.md): the undone create's delete leaves no entry in the trash. */
  trash?: string;
  remove(scope: ServiceScope, userId: string, id: string, kept: Kept): Promise<unknown>;
  change?(scope: ServiceScope, userId: string, id: string, changes: Record<string, unknown>, kept: Kept): Promise<unknown>;
}

interface Stamp {
  version?: number;
  updatedAt?: string;
}

/** What tells that the record changed since the write: `version` where the table has one (docs/concurrency.md), else `updatedAt`. */
function stampField(scope: ServiceScope, entity: EntityName<object>): 'version' | 'updatedAt' {
  return (scope.em.getMetadata().find(entity)?.properties as Record<string, unknown> | undefined)?.version ? 'version' : 'updatedAt';
}

function stampOf(field: 'version' | 'updatedAt', value: unknown): Stamp {
  return field === 'version' ? { version: value as number } : { updatedAt: new Date(value as string | Date).toISOString() };
}

/** The record's stamp after the write: from the write's answer, else read (an answer that is a view without it). */
async function stampAfter(scope: ServiceScope, spec: RecordWrites, userId: string, id: string, result: unknown): Promise<Stamp | null> {
  const field = stampField(scope, spec.entity);
  const given = (result as Record<string, unknown> | null)?.[field];
  if (given !== undefined && given !== null) return stampOf(field, given);
  const found = await scope.em.fork().findOne(spec.entity, { id, userId } as never, { fields: [field] as never });
  return found ? stampOf(field, (found as Record<string, unknown>)[field]) : null;
}

/** Locks the record for the rest of the undo and refuses one that changed since the write. */
async function requireSame(scope: ServiceScope, spec: RecordWrites, userId: string, offer: UndoOffer): Promise<void> {
  const field = stampField(scope, spec.entity);
  const found = await scope.em.findOne(spec.entity, { id: offer.recordId, userId } as never, { fields: [field] as never, lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!found) throw new NotFoundError(spec.resource);
  const now = stampOf(field, (found as Record<string, unknown>)[field]);
  const then = offer.data.stamp as Stamp;
  if (now.version !== then.version || now.updatedAt !== then.updatedAt) throw new UndoConflictError(spec.resource, now.version);
}

const keptOf = (spec: RecordWrites, args: UndoArgs): Kept => Object.fromEntries((spec.keep ?? []).map((name) => [name, args[name]]));

function createKind(spec: RecordWrites): UndoKind {
  return {
    kind: `${spec.name}_create`,
    mutation: spec.create,
    async offer(scope, userId, args, result) {
      if (spec.skip?.(args)) return null;
      const recordId = (result as { id: string }).id;
      const stamp = await stampAfter(scope, spec, userId, recordId, result);
      return stamp && { recordId, data: { stamp, kept: keptOf(spec, args) } };
    },
    async invert(scope, userId, offer) {
      await requireSame(scope, spec, userId, offer);
      await spec.remove(scope, userId, offer.recordId, offer.data.kept as Kept);
      if (!spec.trash) return;
      // An undone create leaves nothing behind: not even the trash entry its delete made.
      const item = await scope.em.findOne(TrashItem, { userId, kind: spec.trash, recordId: offer.recordId }, { orderBy: { deletedAt: 'desc' }, fields: ['id'] });
      if (item) await TrashService.forRequest(scope).deleteForever(userId, item.id);
    },
  };
}

interface Previous {
  /** The previous values, JSON-safe (a Date as its ISO text, named in `dates`). */
  values: Record<string, unknown>;
  dates: string[];
}

function updateKind(spec: RecordWrites & { update: string }): UndoKind {
  const allowed = new Set([spec.idArg, ...spec.fields, ...(spec.ignore ?? []), ...(spec.keep ?? [])]);
  return {
    kind: `${spec.name}_update`,
    mutation: spec.update,
    async before({ em }, userId, args): Promise<Previous | null> {
      // An argument with no plain inverse (a nested list, a recurrence) makes the call offer no token.
      if (Object.keys(args).some((name) => args[name] !== undefined && !allowed.has(name))) return null;
      if (spec.skip?.(args)) return null;
      const changed = spec.fields.filter((name) => args[name] !== undefined);
      if (!changed.length) return null;
      const found = await em.findOne(spec.entity, { id: args[spec.idArg], userId } as never, { fields: changed as never });
      if (!found) return null;
      const previous: Previous = { values: {}, dates: [] };
      for (const name of changed) {
        const current = (found as Record<string, unknown>)[name];
        const value = spec.previous?.[name] ? spec.previous[name](current, args[name]) : current;
        if (value instanceof Date) previous.dates.push(name);
        // A copy: the write changes this same managed entity.
        previous.values[name] = value === undefined ? null : JSON.parse(JSON.stringify(value));
      }
      return previous;
    },
    async offer(scope, userId, args, result, before) {
      const previous = before as Previous | null;
      if (!previous) return null;
      const recordId = args[spec.idArg] as string;
      const stamp = await stampAfter(scope, spec, userId, recordId, result);
      return stamp && { recordId, data: { ...previous, stamp, kept: keptOf(spec, args) } };
    },
    async invert(scope, userId, offer) {
      await requireSame(scope, spec, userId, offer);
      const { values, dates } = offer.data as unknown as Previous;
      // The service gets what the GraphQL input would hand it: a DateTimeISO as a Date.
      const changes = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, dates.includes(name) && value !== null ? new Date(value as string) : value]));
      await spec.change!(scope, userId, offer.recordId, changes, offer.data.kept as Kept);
    },
  };
}

/** The undo kinds of one record kind: its create's and, when it has one, its update's. */
export function recordWrites(spec: RecordWrites): UndoKind[] {
  return spec.update && spec.change ? [createKind(spec), updateKind({ ...spec, update: spec.update })] : [createKind(spec)];
}
