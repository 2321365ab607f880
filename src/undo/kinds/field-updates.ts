import { Day } from '../../planning/day.entity.js';
import { DayService } from '../../planning/day.service.js';
import { Week } from '../../planning/week.entity.js';
import { WeekService } from '../../planning/week.service.js';
import { SettingsService } from '../../settings/settings.service.js';
import { NotificationService } from '../../reminders/notification.service.js';
import { DinnerPlan } from '../../nutrition/dinner-plan.entity.js';
import { DinnerPlanService } from '../../nutrition/dinner-plan.service.js';
import { GroceryItem } from '../../nutrition/grocery-list.entity.js';
import { GroceryListService } from '../../nutrition/grocery-list.service.js';
import { BrainForm } from '../../brain/forms/brain-form.entity.js';
import { publishForm } from '../../brain/forms/form.service.js';
import type { ServiceScope } from '../../core/request-services.js';
import { requireSameValues, sameValue, type UndoArgs, type UndoKind } from '../undo-kind.js';

type Values = Record<string, unknown>;

/** JSON-able values of a record's fields (dates as ISO text), as kept in an offer. */
function valuesOf(record: object, fields: readonly string[]): Values {
  const source = record as Values;
  return Object.fromEntries(fields.map((f) => [f, source[f] instanceof Date ? (source[f] as Date).toISOString() : (source[f] ?? null)]));
}

/**
 * An update of some fields of one record: its undo writes the previous values of the fields it changed
 * back through the same service method, unless one of them changed since (409). `read` answers the
 * record's current fields (null: not the caller's); `fields` the ones this write may change (default:
 * every argument but the record's id); `keep` what the inverse needs besides (a parent's id).
 */
interface FieldUpdate {
  kind: string;
  mutation: string;
  resource: string;
  idArg?: string;
  fields?: readonly string[];
  read(scope: ServiceScope, userId: string, id: string | undefined): Promise<object | null>;
  keep?(record: object): Values;
  write(scope: ServiceScope, userId: string, recordId: string, previous: Values, kept: Values): Promise<unknown>;
}

function fieldUpdate(spec: FieldUpdate): UndoKind {
  const changing = (args: UndoArgs) => (spec.fields ?? Object.keys(args).filter((k) => k !== spec.idArg)).filter((f) => args[f] !== undefined);
  return {
    kind: spec.kind,
    mutation: spec.mutation,
    async before(scope, userId, args) {
      const record = await spec.read(scope, userId, spec.idArg ? (args[spec.idArg] as string) : undefined);
      // Copied: the write changes this same managed entity.
      return record && { values: valuesOf(record, changing(args)), kept: spec.keep?.(record) ?? {} };
    },
    offer(_scope, _userId, args, result, before) {
      if (!before) return null;
      const { values, kept } = before as { values: Values; kept: Values };
      const after = valuesOf(result as object, Object.keys(values));
      const changed = Object.keys(values).filter((f) => !sameValue(values[f], after[f]));
      if (!changed.length) return null;
      const recordId = spec.idArg ? (args[spec.idArg] as string) : (result as { id: string }).id;
      const pick = (v: Values) => Object.fromEntries(changed.map((f) => [f, v[f]]));
      return { recordId, data: { previous: pick(values), left: pick(after), kept } };
    },
    async invert(scope, userId, offer) {
      const { previous, left, kept } = offer.data as { previous: Values; left: Values; kept: Values };
      const current = await spec.read(scope, userId, spec.idArg ? offer.recordId : undefined);
      requireSameValues(current && valuesOf(current, Object.keys(left)), left, spec.resource);
      await spec.write(scope, userId, offer.recordId, previous, kept);
    },
  };
}

export const FIELD_UPDATES: readonly UndoKind[] = [
  fieldUpdate({
    kind: 'day_update',
    mutation: 'updateDay',
    resource: 'Day',
    idArg: 'dayId',
    fields: ['notes', 'minimumMode', 'mood', 'energy', 'sleepHours'],
    read: ({ em }, userId, id) => em.findOne(Day, { id, userId }, { fields: ['notes', 'minimumMode', 'mood', 'energy', 'sleepHours'] }),
    write: ({ em }, userId, id, previous) => new DayService(em).update(userId, id, previous),
  }),
  fieldUpdate({
    kind: 'week_update',
    mutation: 'updateWeek',
    resource: 'Week',
    idArg: 'weekId',
    fields: ['isStressWeek'],
    read: ({ em }, userId, id) => em.findOne(Week, { id, userId }, { fields: ['isStressWeek'] }),
    write: ({ em }, userId, id, previous) => new WeekService(em).update(userId, id, previous),
  }),
  fieldUpdate({
    kind: 'settings_update',
    mutation: 'updateSettings',
    resource: 'Settings',
    // Its row is made with the defaults on the first read: the first update is undoable too.
    read: ({ em }, userId) => new SettingsService(em).get(userId),
    write: ({ em }, userId, _id, previous) => new SettingsService(em).update(userId, previous),
  }),
  fieldUpdate({
    kind: 'notification_settings_update',
    mutation: 'updateNotificationSettings',
    resource: 'Notification settings',
    read: (scope, userId) => NotificationService.forRequest(scope).settings(userId),
    write: (scope, userId, _id, previous) => NotificationService.forRequest(scope).updateSettings(userId, previous),
  }),
  fieldUpdate({
    kind: 'dinner_plan_update',
    mutation: 'updateDinnerPlan',
    resource: 'Dinner plan',
    idArg: 'dinnerPlanId',
    fields: ['mealTemplateId', 'cooked'],
    read: ({ em }, userId, id) => em.findOne(DinnerPlan, { id, userId }),
    write: ({ em }, userId, id, previous) => new DinnerPlanService(em).update(userId, id, previous),
  }),
  fieldUpdate({
    kind: 'grocery_item_update',
    mutation: 'updateGroceryItem',
    resource: 'Grocery item',
    idArg: 'itemId',
    fields: ['purchased'],
    read: ({ em }, userId, id) => em.findOne(GroceryItem, { id, userId }, { fields: ['purchased', 'listId'] }),
    keep: (item) => ({ listId: (item as GroceryItem).listId }),
    write: ({ em }, userId, id, previous, kept) => new GroceryListService(em).setPurchased(userId, kept.listId as string, id, previous.purchased as boolean),
  }),
  fieldUpdate({
    kind: 'brain_form_publish',
    mutation: 'publishBrainForm',
    resource: 'Brain form',
    idArg: 'formId',
    fields: ['published'],
    read: ({ em }, userId, id) => em.findOne(BrainForm, { id, userId }, { fields: ['published'] }),
    // The public slug stays (an unpublished form keeps it): publishing again shares the same link.
    write: ({ em }, userId, id, previous) => publishForm(em, userId, id, { published: previous.published }),
  }),
];
