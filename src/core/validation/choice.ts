import { IsEnum, IsIn } from 'class-validator';

/** The words of a value outside its list, one for every surface (the connector's tools use them too). */
export const oneOfMessage = (field: string, values: readonly string[]) => `${field} must be one of ${values.join(', ')}`;

/** One of `values` (a list of strings). */
export function OneOf(field: string, values: readonly string[]): PropertyDecorator {
  return IsIn([...values], { message: oneOfMessage(field, values) });
}

/** One of a string enum's values, named in the enum's order. */
export function OneOfEnum(field: string, values: Record<string, string>): PropertyDecorator {
  return IsEnum(values, { message: oneOfMessage(field, Object.values(values)) });
}
