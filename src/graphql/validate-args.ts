import { validateOrReject, type ValidatorOptions } from 'class-validator';
import { ArgumentValidationError, type ValidatorFn } from 'type-graphql';

// type-graphql's defaults for class-validator, kept as they are.
const options: ValidatorOptions = { skipMissingProperties: true, forbidUnknownValues: false };

const validatable = (value: unknown): value is object => value !== null && typeof value === 'object';

/**
 * The same argument validation type-graphql does by default, with class-validator imported once:
 * its default path `import()`s class-validator on every validated argument, which under a module
 * loader hook (tsx) costs a loader round trip per request.
 */
export const validateArgs: ValidatorFn = async (argValue) => {
  if (!validatable(argValue)) return;
  try {
    if (Array.isArray(argValue)) await Promise.all(argValue.filter(validatable).map((item) => validateOrReject(item, options)));
    else await validateOrReject(argValue, options);
  } catch (errors) {
    throw new ArgumentValidationError(errors as never);
  }
};
