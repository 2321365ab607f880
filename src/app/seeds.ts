import type { EntityManager } from '@mikro-orm/postgresql';
import { seedGlobalExercises } from '../training/exercise-catalog.seed.js';
import { seedGlobalJournalQuestions } from '../journal/journal-questions.seed.js';
import { seedAchievements } from '../gamification/achievement-catalog.seed.js';
import { seedShopItems } from '../gamification/shop-catalog.seed.js';

/**
 * Reference data every deployment needs, written at start after the migrations. Each seed must be
 * idempotent (insert what is missing, change nothing else). A domain module adds its seed here.
 */
export async function runSeeds(em: EntityManager): Promise<void> {
  await seedGlobalExercises(em);
  await seedGlobalJournalQuestions(em);
  await seedAchievements(em);
  await seedShopItems(em);
}
