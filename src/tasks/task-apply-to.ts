import { registerEnumType } from 'type-graphql';

/**
 * Which tasks of a series an edit or a delete reaches, as calendar apps ask: `this` occurrence only, or
 * `this` and the `following` ones (the series is split there). A task outside any series ignores it.
 */
export enum TaskApplyTo {
  this = 'this',
  following = 'following',
}

registerEnumType(TaskApplyTo, {
  name: 'TaskApplyTo',
  description: 'Which occurrences of a recurring task a change or a delete reaches (ignored for a task outside a series).',
  valuesConfig: {
    this: { description: 'Only this occurrence.' },
    following: { description: 'This occurrence and the following ones: the series is split here.' },
  },
});
