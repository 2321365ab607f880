import { registerEnumType } from 'type-graphql';

/** How much of the movement's range a set used (operations.md, Training). */
export enum RangeOfMotion {
  full = 'full',
  partial = 'partial',
  lengthened = 'lengthened',
}

registerEnumType(RangeOfMotion, { name: 'RangeOfMotion', description: 'Range of motion of a set: full, partial or lengthened partials.' });
