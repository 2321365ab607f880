import { registerEnumType } from 'type-graphql';

/** The Public API's cardio intensity: an effort level rather than a 1-10 rating. */
export enum CardioEffort {
  easy = 'easy',
  zone2 = 'zone2',
  hard = 'hard',
}

registerEnumType(CardioEffort, { name: 'CardioEffort', description: 'Effort level of a cardio session.' });
