import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, readRows, rowShape } from '../core/database/read-rows.js';
import { ChecklistItem } from './checklist-item.entity.js';
import { sortChecklist } from './checklist.service.js';
import { Day } from './day.entity.js';
import { DayPerimeterTask } from './day-perimeter-task.entity.js';
import { PerimeterTask } from './perimeter-task.entity.js';
import { Week } from './week.entity.js';

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * Batched reads of the planning graph: one query per relation, whatever the number of parents. They
 * return plain read-only rows (src/core/database/read-rows.ts), not managed entities.
 */
export function createPlanningLoaders(em: EntityManager) {
  const weekById = new DataLoader<string, Week | undefined>(async (ids) => {
    const rows = await readRows(em, Week, { where: 'id', values: ids });
    const byId = new Map(rows.map((w) => [w.id, w]));
    return ids.map((id) => byId.get(id));
  });

  const dayById = new DataLoader<string, Day | undefined>(async (ids) => {
    const rows = await readRows(em, Day, { where: 'id', values: ids });
    const byId = new Map(rows.map((d) => [d.id, d]));
    return ids.map((id) => byId.get(id));
  });

  const daysByWeekId = new DataLoader<string, Day[]>(async (weekIds) => {
    const rows = await readRows(em, Day, { where: 'weekId', values: weekIds, orderBy: ['date'] });
    for (const day of rows) dayById.prime(day.id, day);
    const groups = groupBy(rows, (d) => d.weekId);
    return weekIds.map((id) => groups.get(id) ?? []);
  });

  const checklistByDayId = new DataLoader<string, ChecklistItem[]>(async (dayIds) => {
    const rows = await readRows(em, ChecklistItem, { where: 'dayId', values: dayIds });
    const groups = groupBy(rows, (i) => i.dayId);
    return dayIds.map((id) => sortChecklist(groups.get(id) ?? []));
  });

  const perimeterByDayId = new DataLoader<string, PerimeterTask[]>(async (dayIds) => {
    // One statement: the day's links joined to their tasks, in the order chosen.
    const link = rowShape(em, DayPerimeterTask);
    const task = rowShape(em, PerimeterTask);
    const rows = await queryRows(
      em,
      `select l.${link.column('dayId')} as "linkDayId", ${task.columns('t')} from ${link.table} as l` +
        ` join ${task.table} as t on t.id = l.${link.column('perimeterTaskId')}` +
        ` where l.${link.column('dayId')} = any($1) order by l.${link.column('position')} asc`,
      [dayIds],
    );
    const groups = new Map<string, PerimeterTask[]>();
    for (const row of rows) {
      const dayId = row.linkDayId as string;
      const list = groups.get(dayId);
      if (list) list.push(task.toEntity(row));
      else groups.set(dayId, [task.toEntity(row)]);
    }
    return dayIds.map((id) => groups.get(id) ?? []);
  });

  return { weekById, dayById, daysByWeekId, checklistByDayId, perimeterByDayId };
}

export type PlanningLoaders = ReturnType<typeof createPlanningLoaders>;
