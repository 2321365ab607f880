/**
 * Several property decorators as one, applied in the order given. class-validator checks a property's
 * rules in the order they were applied and lists their errors in that order, so a shape names its rules
 * in the order that gives its errors: written one above another on a property, TypeScript applies
 * decorators bottom first.
 */
export function composed(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorate of decorators) decorate(target, key);
  };
}
