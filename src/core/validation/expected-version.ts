import { IsOptional } from 'class-validator';
import { Field, Int } from 'type-graphql';
import { composed } from './compose.js';
import { WholeNumber } from './numbers.js';

/**
 * An update's optional `expectedVersion` (issue 38, docs/concurrency.md): the `version` the client last
 * read; the write is refused with VERSION_CONFLICT when the record has moved on. REST fills it from
 * If-Match (rest/record-versions.ts). Absent or null, the write behaves as before.
 */
export function ExpectedVersion(): PropertyDecorator {
  return composed(
    Field(() => Int, {
      nullable: true,
      description:
        'The `version` last read: the write is refused with VERSION_CONFLICT (the current record in `details.current`) if the record changed since. REST: the `If-Match` header.',
    }),
    IsOptional(),
    WholeNumber(1, undefined, { int: 'expectedVersion must be a whole number', min: 'expectedVersion must be at least 1' }),
  );
}
