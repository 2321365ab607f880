import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
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

/** Batched reads of the planning graph: one query per relation, whatever the number of parents. */
export function createPlanningLoaders(em: EntityManager) {
  const weekById = new DataLoader<string, Week | undefined>(async (ids) => {
    const rows = await em.find(Week, { id: { $in: [...ids] } });
    const byId = new Map(rows.map((w) => [w.id, w]));
    return ids.map((id) => byId.get(id));
  });

  const dayById = new DataLoader<string, Day | undefined>(async (ids) => {
    const rows = await em.find(Day, { id: { $in: [...ids] } });
    const byId = new Map(rows.map((d) => [d.id, d]));
    return ids.map((id) => byId.get(id));
  });

  const daysByWeekId = new DataLoader<string, Day[]>(async (weekIds) => {
    const rows = await em.find(Day, { weekId: { $in: [...weekIds] } }, { orderBy: { date: 'asc' } });
    for (const day of rows) dayById.prime(day.id, day);
    const groups = groupBy(rows, (d) => d.weekId);
    return weekIds.map((id) => groups.get(id) ?? []);
  });

  const checklistByDayId = new DataLoader<string, ChecklistItem[]>(async (dayIds) => {
    const rows = await em.find(ChecklistItem, { dayId: { $in: [...dayIds] } });
    const groups = groupBy(rows, (i) => i.dayId);
    return dayIds.map((id) => sortChecklist(groups.get(id) ?? []));
  });

  const perimeterByDayId = new DataLoader<string, PerimeterTask[]>(async (dayIds) => {
    const links = await em.find(DayPerimeterTask, { dayId: { $in: [...dayIds] } }, { orderBy: { position: 'asc' } });
    const tasks = links.length ? await em.find(PerimeterTask, { id: { $in: [...new Set(links.map((l) => l.perimeterTaskId))] } }) : [];
    const taskById = new Map(tasks.map((t) => [t.id, t]));
    const groups = groupBy(links, (l) => l.dayId);
    return dayIds.map((id) => (groups.get(id) ?? []).map((l) => taskById.get(l.perimeterTaskId)!).filter(Boolean));
  });

  return { weekById, dayById, daysByWeekId, checklistByDayId, perimeterByDayId };
}

export type PlanningLoaders = ReturnType<typeof createPlanningLoaders>;
