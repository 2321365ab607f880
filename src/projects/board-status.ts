/**
 * A project task's status follows its column: `todo` in the first, `done` in the last, `doing` in any
 * other (operations.md). A board of one column holds only `todo` tasks.
 */
export function statusOfColumn(position: number, columnCount: number): 'todo' | 'doing' | 'done' {
  if (position === 0) return 'todo';
  return position === columnCount - 1 ? 'done' : 'doing';
}

export const DEFAULT_COLUMNS = ['To do', 'In progress', 'Done'];
