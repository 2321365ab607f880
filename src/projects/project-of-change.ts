import { ownerRecordIds } from '../core/live/change-collector.js';
import type { LiveChange } from '../core/live/live-change.js';

/** The projects a changed record belongs to (`LiveChange.scope.project`): the Project, or a column's or card's `projectId` before and after. */
export const projectsOfChange = ownerRecordIds('Project', 'projectId');

/** Whether a change can concern the project `projectId`: it names it, or names no project (a tag: any board may show it). */
export function mayConcernProject(change: LiveChange, projectId: unknown): boolean {
  const projects = change.scope?.project;
  return projects === undefined || typeof projectId !== 'string' || projects.includes(projectId);
}
