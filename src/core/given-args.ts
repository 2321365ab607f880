/** Only the arguments given (an argument left out is no key), so a service sees what a REST body would hold. */
export function given<T extends object>(args: T): Partial<T> & Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)) as Partial<T> & Record<string, unknown>;
}
