import { IsDefined, ValidateIf } from 'class-validator';

/**
 * For optional update fields: absent → untouched; present → must be valid, and an explicit null is
 * refused. type-graphql validates with skipMissingProperties (null and undefined skip every rule but
 * @IsDefined), hence the pair.
 */
export function IfPresent(field: string): PropertyDecorator {
  const present = ValidateIf((_object, value) => value !== undefined);
  const notNull = IsDefined({ message: `${field} cannot be null` });
  return (target, key) => {
    present(target, key);
    notNull(target, key);
  };
}
