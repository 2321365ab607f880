/** node-postgres' own parameter serialisation (pg/lib/utils.js), which its typings do not declare. */
declare module 'pg/lib/utils.js' {
  /** The text form pg sends for a parameter (null stays null; a Buffer stays binary). */
  export function prepareValue(value: unknown): string | Buffer | null | undefined;
}
