import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Day } from './day.entity.js';
import { PerimeterTask } from './perimeter-task.entity.js';

/** A perimeter task chosen for a day, in the order given. */
@Entity({ tableName: 'day_perimeter_tasks' })
@Unique({ properties: ['dayId', 'perimeterTaskId'] })
export class DayPerimeterTask {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => Day, { mapToPk: true, deleteRule: 'cascade', fieldName: 'day_id' })
  dayId!: string;

  @ManyToOne(() => PerimeterTask, { mapToPk: true, deleteRule: 'cascade', fieldName: 'perimeter_task_id' })
  perimeterTaskId!: string;

  @Property({ type: 'smallint' })
  position!: number;
}
