import { AmbiguousNameError, NotFoundError, ValidationError } from '../../../core/errors.js';

/** At most this many candidates are listed when a name is unknown or ambiguous. */
const CANDIDATES_SHOWN = 20;

export interface Named {
  id: string;
  name: string;
}

/**
 * The one record a person means by `name` among `records` (the caller's own): an exact match ignoring
 * case and surrounding spaces, else the only record whose name contains it. None: NOT_FOUND listing
 * the candidates; several: AMBIGUOUS_NAME listing them, so the assistant can ask which one.
 */
export function pickByName<T>(kind: string, records: readonly T[], name: string, nameOf: (record: T) => string, idOf: (record: T) => string): T {
  const wanted = name.trim().toLocaleLowerCase();
  const named = records.map((record) => ({ record, name: nameOf(record).trim().toLocaleLowerCase() }));
  const exact = named.filter((r) => r.name === wanted);
  const matches = exact.length ? exact : named.filter((r) => r.name.includes(wanted));
  if (matches.length === 1) return matches[0]!.record;
  const list = (matches.length ? matches : named).slice(0, CANDIDATES_SHOWN).map((r) => ({ id: idOf(r.record), name: nameOf(r.record) }));
  if (!matches.length) throw new NotFoundError(kind, { name, candidates: list });
  throw new AmbiguousNameError(`${matches.length} ${kind.toLowerCase()} records match "${name}"; name one by id`, { name, candidates: list });
}

/** An id when the caller gave one, else the record picked by name; one of the two is required. */
export async function idOrName<T>(
  kind: string,
  given: { id?: string; name?: string },
  load: () => Promise<readonly T[]>,
  nameOf: (record: T) => string,
  idOf: (record: T) => string,
): Promise<string> {
  if (given.id) return given.id;
  if (given.name === undefined) throw new ValidationError(`Give the ${kind.toLowerCase()}'s id or name`, [{ path: [], message: `an id or a name is required` }]);
  return idOf(pickByName(kind, await load(), given.name, nameOf, idOf));
}
