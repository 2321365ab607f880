import type { AppDeps } from '../core/context.js';

/** Where an upload's variants are handed to be made (the VariantWorker of this process). */
export interface VariantQueue {
  /** Resolves once the variants are sure to be made (their backstop job is stored). */
  submit(fileId: string): Promise<void>;
}

/*
 * The queue of each process, registered by the worker when the file jobs are (variant.jobs.ts). A lookup
 * of its own so that the files runtime, which the worker itself uses, need not import the worker.
 */
const queues = new WeakMap<AppDeps, VariantQueue>();

export function registerVariantQueue(deps: AppDeps, queue: VariantQueue): void {
  queues.set(deps, queue);
}

export function variantQueue(deps: AppDeps): VariantQueue {
  const queue = queues.get(deps);
  if (!queue) throw new Error('variant worker not registered (registerFileJobs)');
  return queue;
}
