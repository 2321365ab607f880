import type { RequestService } from '../core/request-services.js';
import type { Draft } from './draft.js';
import type { NamedRecord } from './names.js';

/** What a writer is handed: the person, their zone, services made on this request's entity manager. */
export interface WriteScope {
  userId: string;
  timezone: string;
  service<T>(service: RequestService<T>): T;
}

/** A name in the line that matched none or several of the person's records. */
export interface NameMiss {
  field: string;
  name: string;
  candidates: NamedRecord[];
}

/**
 * One kind's way to the domain: `resolve` turns the names of the draft into the person's own record
 * ids (only their own: the domain services read by owner) and fills what the record needs, reading
 * only; `write` calls the domain service that owns the record, so its rules, events and checklist
 * ticks are the domain's own. A dry run stops after `resolve`.
 */
export interface KindWriter {
  /** The record type in the answer (the GraphQL type's name). */
  type: string;
  resolve(draft: Draft, scope: WriteScope): Promise<{ fields: Record<string, unknown>; misses: NameMiss[]; assumptions?: string[] }>;
  /** Answers the record as its domain service answered it (with what that answer carries beyond the row: a mood's replaced values). */
  write(fields: Record<string, any>, scope: WriteScope): Promise<{ id: string }>;
}
