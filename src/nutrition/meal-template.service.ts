import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../core/deleted.js';
import { findPage } from '../core/database/find-page.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { FileService } from '../files/file.service.js';
import { MealTemplate, type Ingredient } from './meal-template.entity.js';
import type { ServiceScope } from '../core/request-services.js';

export interface IngredientData {
  name: string;
  quantity?: number | null;
  unit?: string | null;
  section?: string | null;
}

export interface NewMealTemplate {
  name: string;
  ingredients?: IngredientData[] | null;
  instructions?: string | null;
  imageFileId?: string | null;
  servings?: number | null;
}

/** Absent leaves a field as it is; null clears instructions, imageFileId and servings; `ingredients` replaces all. */
export interface MealTemplateChanges {
  name?: string;
  ingredients?: IngredientData[];
  instructions?: string | null;
  imageFileId?: string | null;
  servings?: number | null;
}

function toIngredients(list: IngredientData[] | null | undefined): Ingredient[] {
  return (list ?? []).map((i) => ({ name: i.name.trim(), quantity: i.quantity ?? null, unit: (i.unit ?? '').trim(), section: (i.section ?? '').trim() }));
}

/** Meal templates of one user; an image must be one of the user's own image files. */
export class MealTemplateService {
  /** Made for a request with the files service its pictures need. */
  static forRequest(ctx: ServiceScope): MealTemplateService {
    return new MealTemplateService(ctx.em, FileService.forRequest(ctx));
  }

  constructor(
    private readonly em: EntityManager,
    private readonly files: FileService,
  ) {}

  async list(userId: string, args: PageArgs): Promise<Page<MealTemplate>> {
    return findPage(this.em, MealTemplate, { userId }, { createdAt: 'asc', id: 'asc' }, args);
  }

  /** The names of the caller's templates among `ids` (others' ids are left out). */
  async namesOf(userId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.em.find(MealTemplate, { id: { $in: [...ids] }, userId });
    return new Map(rows.map((t) => [t.id, t.name]));
  }

  async get(userId: string, id: string): Promise<MealTemplate> {
    const template = await this.em.findOne(MealTemplate, { id, userId });
    if (!template) throw new NotFoundError('Meal template');
    return template;
  }

  /** The template for a reference inside a body: a missing or foreign one is a 404 naming `field`. */
  async requireOwn(userId: string, id: string, field: string): Promise<MealTemplate> {
    const template = await this.em.findOne(MealTemplate, { id, userId });
    if (!template) throw new NotFoundError('Meal template', { field });
    return template;
  }

  async create(userId: string, input: NewMealTemplate): Promise<MealTemplate> {
    if (input.imageFileId) await this.requireImage(userId, input.imageFileId);
    const template = this.em.create(MealTemplate, {
      userId,
      name: input.name.trim(),
      ingredients: toIngredients(input.ingredients),
      instructions: input.instructions ?? null,
      imageFileId: input.imageFileId ?? null,
      servings: input.servings ?? null,
    });
    await this.em.flush();
    return template;
  }

  async update(userId: string, id: string, changes: MealTemplateChanges): Promise<MealTemplate> {
    const template = await this.get(userId, id);
    if (changes.imageFileId) await this.requireImage(userId, changes.imageFileId);
    if (changes.name !== undefined) template.name = changes.name.trim();
    if (changes.ingredients !== undefined) template.ingredients = toIngredients(changes.ingredients);
    if (changes.instructions !== undefined) template.instructions = changes.instructions;
    if (changes.imageFileId !== undefined) template.imageFileId = changes.imageFileId;
    if (changes.servings !== undefined) template.servings = changes.servings;
    await this.em.flush();
    return template;
  }

  /** Dinner plans that used it keep their day and lose the template (`mealTemplateId` null). */
  async delete(userId: string, id: string): Promise<Deleted> {
    const template = await this.get(userId, id);
    await this.em.remove(template).flush();
    return deleted(id, 'Meal template');
  }

  private async requireImage(userId: string, fileId: string): Promise<void> {
    await this.files.requireOwnedFile(userId, fileId, { field: 'imageFileId', image: true });
  }
}
