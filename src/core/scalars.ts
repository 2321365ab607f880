import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { DateTimeISOResolver, UUIDResolver } from 'graphql-scalars';

export { UUIDResolver as UUID };

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date `YYYY-MM-DD` that really exists (no 2026-02-30). */
export function isLocalDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

function parseLocalDate(value: unknown): string {
  if (!isLocalDate(value)) throw new GraphQLError(`Expected a date as YYYY-MM-DD, got ${JSON.stringify(value)}`);
  return value;
}

/** Date-only fields are plain `YYYY-MM-DD` strings end to end: no time zone can shift them. */
export const LocalDate = new GraphQLScalarType<string, string>({
  name: 'LocalDate',
  description: 'A calendar date, YYYY-MM-DD.',
  // Its JSON type, as graphql-scalars' own scalars declare theirs (rest/variable-check.ts reads it).
  extensions: { jsonSchema: { type: 'string', format: 'date' } },
  serialize: (value) => parseLocalDate(value),
  parseValue: (value) => parseLocalDate(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('Expected a date string YYYY-MM-DD');
    return parseLocalDate(ast.value);
  },
});

/**
 * graphql-scalars' DateTimeISO with a direct path for the common case: a valid Date serialises to its
 * ISO string. Its own serialize re-validates every value through its generic DateTime rules, which
 * cost about 4% of the CPU of a week read (hundreds of timestamps). Name, description, input parsing
 * and every other case are graphql-scalars'.
 */
const baseDateTimeISO = DateTimeISOResolver.toConfig();
export const DateTimeISO = new GraphQLScalarType({
  ...baseDateTimeISO,
  serialize(value) {
    return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : baseDateTimeISO.serialize(value);
  },
});

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its text form (any version, either case), as the UUID scalar accepts it. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}
