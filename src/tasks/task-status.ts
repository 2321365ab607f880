import { registerEnumType } from 'type-graphql';

/** Spec: task status values, lowercase on every surface. */
export enum TaskStatus {
  todo = 'todo',
  doing = 'doing',
  done = 'done',
  deferred = 'deferred',
}

registerEnumType(TaskStatus, { name: 'TaskStatus' });
