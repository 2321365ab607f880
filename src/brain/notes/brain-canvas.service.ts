import type { EntityManager } from '@mikro-orm/postgresql';
import { deleted, type Deleted } from '../../core/deleted.js';
import { NotFoundError } from '../../core/errors.js';
import { findPage } from '../../core/database/find-page.js';
import type { Page, PageArgs } from '../../core/pagination.js';
import { ownEntityCounts } from './brain-notes.queries.js';
import { BrainCanvas, type BrainCanvasCard } from './brain-canvas.entity.js';

export interface CanvasCardInput {
  entityType: string;
  entityId: string;
  x: number;
  y: number;
  w?: number | null;
  h?: number | null;
}

/** Saved boards of entity cards. */
export class BrainCanvasService {
  constructor(private readonly em: EntityManager) {}

  list(userId: string, args: PageArgs): Promise<Page<BrainCanvas>> {
    return findPage(this.em, BrainCanvas, { userId }, { createdAt: 'asc', id: 'asc' }, args);
  }

  async get(userId: string, canvasId: string): Promise<BrainCanvas> {
    const canvas = await this.em.findOne(BrainCanvas, { id: canvasId, userId });
    if (!canvas) throw new NotFoundError('Canvas');
    return canvas;
  }

  async create(userId: string, input: { name: string; cards?: CanvasCardInput[] | null }): Promise<BrainCanvas> {
    const cards = await requireOwnEntities(this.em, userId, input.cards ?? []);
    const canvas = this.em.create(BrainCanvas, { userId, name: input.name.trim(), cards });
    await this.em.flush();
    return canvas;
  }

  async update(userId: string, canvasId: string, changes: { name?: string; cards?: CanvasCardInput[] }): Promise<BrainCanvas> {
    const canvas = await this.get(userId, canvasId);
    if (changes.cards) canvas.cards = await requireOwnEntities(this.em, userId, changes.cards);
    if (changes.name !== undefined) canvas.name = changes.name.trim();
    await this.em.flush();
    return canvas;
  }

  async delete(userId: string, canvasId: string): Promise<Deleted> {
    const canvas = await this.get(userId, canvasId);
    await this.em.remove(canvas).flush();
    return deleted(canvasId, 'Canvas');
  }
}

/**
 * Every card must show one of the user's entities of its type (one statement over the search sources);
 * another user's or a missing entity is NOT_FOUND naming `cards`. Stored cards are plain and in order.
 */
async function requireOwnEntities(em: EntityManager, userId: string, cards: CanvasCardInput[]): Promise<BrainCanvasCard[]> {
  const plain = cards.map((c) => ({
    entityType: c.entityType,
    entityId: c.entityId.toLowerCase(),
    x: c.x,
    y: c.y,
    w: c.w ?? null,
    h: c.h ?? null,
  }));
  const wanted = new Map<string, Set<string>>();
  for (const c of plain) (wanted.get(c.entityType) ?? wanted.set(c.entityType, new Set()).get(c.entityType)!).add(c.entityId);
  if (!wanted.size) return plain;
  const rows = await ownEntityCounts(em, userId, wanted);
  if (!rows) throw new NotFoundError('Entity', { field: 'cards' });
  if (rows.some((r) => r.n !== r.wanted)) throw new NotFoundError('Entity', { field: 'cards' });
  return plain;
}
