import { withExpectedVersion } from '../core/database/expected-version.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { findPage } from '../core/database/find-page.js';
import { removeGuestEverywhere } from './social.queries.js';
import { moveToTrash } from '../trash/trash-kinds.js';
import { PERSON_TRASH } from './person.trash.js';
import { recordEvent } from '../core/events/record-event.js';
import { FileService } from '../files/file.service.js';
import type { FilesRuntime } from '../files/files-runtime.js';
import { PerimeterTask } from '../planning/perimeter-task.entity.js';
import { Person } from './person.entity.js';
import type { ServiceScope } from '../core/request-services.js';

export const FRIEND = 'friend';

export interface NewPerson {
  name: string;
  relationshipType?: string | null;
  pictureUrl?: string | null;
  notes?: string | null;
  /** YYYY-MM-DD (the year may be a guess). */
  birthday?: string | null;
}

/** Absent keys stay; null clears relationshipType, pictureUrl, notes and birthday. */
export interface PersonChanges {
  name?: string;
  relationshipType?: string | null;
  pictureUrl?: string | null;
  notes?: string | null;
  birthday?: string | null;
}

export interface PeopleFilter extends PageArgs {
  relationshipType?: string | null;
  search?: string | null;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const isFriend = (type: string | null | undefined) => type?.trim().toLowerCase() === FRIEND;
const cleanType = (type: string | null | undefined) => (type?.trim() ? type.trim().toLowerCase() : null);

/**
 * The people of one user. A picture is one of the user's own image files. Becoming a friend (created
 * as one, or changed to one from anything else) queues `friend_added` with the change, in one flush.
 */
export class PersonService {
  /** Made for a request with the files runtime (storage adapters, signing). */
  static forRequest(ctx: ServiceScope): PersonService {
    return new PersonService(ctx.em, ctx.deps.files);
  }

  private readonly files: FileService;

  constructor(
    private readonly em: EntityManager,
    private readonly rt: FilesRuntime,
  ) {
    this.files = new FileService(em, rt);
  }

  async list(userId: string, filter: PeopleFilter): Promise<Page<Person>> {
    const where: FilterQuery<Person> = { userId };
    if (filter.relationshipType?.trim()) where.relationshipType = cleanType(filter.relationshipType);
    if (filter.search?.trim()) {
      const like = `%${escapeLike(filter.search.trim())}%`;
      where.$or = [{ name: { $ilike: like } }, { notes: { $ilike: like } }];
    }
    return findPage(this.em, Person, where, { name: 'asc', id: 'asc' }, filter);
  }

  async get(userId: string, personId: string): Promise<Person> {
    const person = await this.em.findOne(Person, { id: personId, userId });
    if (!person) throw new NotFoundError('Person');
    return person;
  }

  async create(userId: string, input: NewPerson): Promise<Person> {
    if (input.pictureUrl) await this.files.requireOwnedFile(userId, input.pictureUrl, { field: 'pictureUrl', image: true });
    const person = this.em.create(Person, {
      userId,
      name: input.name.trim(),
      relationshipType: cleanType(input.relationshipType),
      pictureUrl: input.pictureUrl ?? null,
      notes: input.notes ?? null,
      birthday: input.birthday ?? null,
    });
    if (isFriend(person.relationshipType)) this.friendAdded(userId, person);
    await this.em.flush();
    return person;
  }

  async update(userId: string, personId: string, changes: PersonChanges, expectedVersion?: number | null): Promise<Person> {
    const target = { entity: Person, where: { id: personId, userId }, resource: 'Person' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new PersonService(em, this.rt).applyUpdate(userId, personId, changes));
  }

  private async applyUpdate(userId: string, personId: string, changes: PersonChanges): Promise<Person> {
    const person = await this.get(userId, personId);
    if (changes.pictureUrl) await this.files.requireOwnedFile(userId, changes.pictureUrl, { field: 'pictureUrl', image: true });
    const wasFriend = isFriend(person.relationshipType);
    if (changes.name !== undefined) person.name = changes.name.trim();
    if (changes.relationshipType !== undefined) person.relationshipType = cleanType(changes.relationshipType);
    if (changes.pictureUrl !== undefined) person.pictureUrl = changes.pictureUrl;
    if (changes.notes !== undefined) person.notes = changes.notes;
    if (changes.birthday !== undefined) person.birthday = changes.birthday;
    if (!wasFriend && isFriend(person.relationshipType)) this.friendAdded(userId, person);
    await this.em.flush();
    return person;
  }

  /** Takes the person out of the guests of every happening and off their perimeter tasks, in the same transaction. */
  /** With `expectedVersion`, refused (VERSION_CONFLICT) when the person changed since it was read; nothing is deleted. */
  async delete(userId: string, personId: string, expectedVersion?: number | null): Promise<Deleted> {
    const target = { entity: Person, where: { id: personId, userId }, resource: 'Person' };
    return withExpectedVersion(this.em, target, expectedVersion, (em) => new PersonService(em, this.rt).applyDelete(userId, personId));
  }

  private async applyDelete(userId: string, personId: string): Promise<Deleted> {
    return this.em.transactional(async (em) => {
      const person = await em.findOne(Person, { id: personId, userId });
      if (!person) throw new NotFoundError('Person');
      // The trash keeps the guest places and perimeter links (PERSON_TRASH.references) and reports the
      // rows they are in as updated to the live updates and the change feed, by SQL.
      await moveToTrash(em, userId, PERSON_TRASH, personId, person.name);
      await removeGuestEverywhere(em, userId, personId);
      await em.nativeUpdate(PerimeterTask, { userId, personId }, { personId: null });
      em.remove(person);
      await em.flush();
      return deleted(personId, 'Person');
    });
  }

  private friendAdded(userId: string, person: Person): void {
    recordEvent(this.em, userId, 'friend_added', { friendId: person.id, addedAt: new Date().toISOString() });
  }
}
