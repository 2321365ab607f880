import { IsDefined, ValidateIf } from 'class-validator';

/**
 * For an optional argument whose column is NOT nullable (updates): absent → untouched; present → must
 * be valid; an explicit null is refused (400 VALIDATION_ERROR naming the field). type-graphql validates
 * with skipMissingProperties, so null and undefined skip every rule but @IsDefined (and `@IsOptional()`
 * lets null through): hence the pair. Optional arguments whose column is nullable keep `@IsOptional()`,
 * and null then clears the column.
 */
export function IfPresent(field: string): PropertyDecorator {
  const present = ValidateIf((_object, value) => value !== undefined);
  const notNull = IsDefined({ message: `${field} cannot be null` });
  return (target, key) => {
    present(target, key);
    notNull(target, key);
  };
}
