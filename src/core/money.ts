import { GraphQLScalarType, Kind } from 'graphql';
import { ValidationError } from './errors.js';

/** At most ±999,999,999.99 per amount: balances (numeric(15,2)) then stay exact as JSON numbers. */
export const MONEY_MAX_DIGITS = 9;
const MONEY_TEXT = new RegExp(`^-?\\d{1,${MONEY_MAX_DIGITS}}(\\.\\d{1,2})?$`);

/**
 * The exact decimal text of a JSON number with at most 2 decimals ("0.1" for 0.1), or null. A double's
 * shortest form (String) is exactly what the client wrote for such numbers, so no rounding happens.
 */
export function moneyText(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const text = String(value);
  return MONEY_TEXT.test(text) ? (text === '-0' ? '0' : text) : null;
}

/** The rule of an amount, as the errors and the OpenAPI documents word it. */
export const MONEY_RULE = `a number with at most 2 decimals, at most ${'9'.repeat(MONEY_MAX_DIGITS)}.99 in absolute value`;
const RULE = MONEY_RULE;

function parse(value: unknown): string {
  const text = moneyText(value);
  if (text === null) throw new TypeError(`Money must be ${RULE}`);
  return text;
}

/**
 * Amounts travel as JSON numbers with at most 2 decimals and are held as exact decimal text
 * (PostgreSQL numeric) inside: the service never computes with floats (SQL numeric does).
 */
export const Money = new GraphQLScalarType<string, number>({
  name: 'Money',
  description: `An exact amount: ${RULE}. Stored as numeric; 0.1 + 0.2 is 0.3.`,
  serialize: (value) => Number(value as string),
  parseValue: parse,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.FLOAT) throw new TypeError(`Money must be ${RULE}`);
    return parse(Number(ast.value));
  },
  extensions: { jsonSchema: { type: 'number' } },
});

/** An amount given to the service directly (outside GraphQL) is checked the same way. */
export function requireMoney(value: string | number, field: string): string {
  const text = typeof value === 'number' ? moneyText(value) : MONEY_TEXT.test(value) ? value : null;
  if (text === null) {
    const message = `${field} must be ${RULE}`;
    throw new ValidationError(message, [{ path: [field], message }]);
  }
  return text;
}
