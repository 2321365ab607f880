/**
 * The layer of every folder of the code, in one table. The import rules (scripts/layers.ts) and the
 * README's architecture list (npm run generate, scripts/architecture-list.ts) are derived from it;
 * test/drift/layers.test.ts fails on a folder under src/ that is not in it, on an entry whose folder
 * is gone, and on a README list that differs.
 *
 * A new folder goes here, in the layer its imports allow: an import may point to its own layer or a
 * lower one, never up.
 */

/** The layers, from the bottom. */
export const LAYERS = [
  { name: 'core', about: 'names no domain; the layers above fill its interfaces by declaration merging' },
  { name: 'jobs, mail, migrations', about: 'runners beside core, naming no domain' },
  { name: 'http kit and graphql', about: 'the HTTP and GraphQL machinery, handed what to serve' },
  { name: 'hub', about: 'what every domain hangs from' },
  { name: 'domains', about: 'one folder per domain: entities, types, service (rules), resolver, loaders, queries, tests' },
  { name: 'cross-cutting features', about: 'react to facts or read the tables of many domains; domains never call them' },
  { name: 'edges', about: 'the surfaces callers reach; rest/ is imported by src/app/ only' },
  { name: 'composition', about: 'the only folder that names every domain' },
] as const;

export type LayerName = (typeof LAYERS)[number]['name'];

/** Every folder of the code (a path ending in `/`), its layer and what it holds. */
export const FOLDER_LAYERS: Readonly<Record<string, { layer: LayerName; what: string }>> = {
  'src/core/': {
    layer: 'core',
    what:
      'config, errors, database (ORM connection, embedded PostgreSQL, batched reads), events outbox, live ' +
      'change bus, pagination, validation rules, the AppDeps/AppContext/Loaders interfaces',
  },
  'src/jobs/': { layer: 'jobs, mail, migrations', what: "the Agenda job runner, the engines' nudged claim loop" },
  'src/mail/': { layer: 'jobs, mail, migrations', what: 'mailer, templates, the mail outbox sweep' },
  'src/migrations/': { layer: 'jobs, mail, migrations', what: 'the migrations and their runner' },
  'src/http/': {
    layer: 'http kit and graphql',
    what:
      'envelope, request context, status override, CSRF, rate limits, logging, health, connection ' +
      'drain, the hand-written route kit, the SSRF-guarded POST',
  },
  'src/graphql/': {
    layer: 'http kit and graphql',
    what:
      'schema assembly from what it is handed, compiled execution, error mapping, argument ' +
      'validation, operation limits',
  },
  'src/openapi/': { layer: 'http kit and graphql', what: 'the OpenAPI generator and Swagger UI' },
  'src/accounts/': {
    layer: 'hub',
    what: 'users, sign-in (password, two factors, passkeys, OpenID Connect), sessions, plans, the auth check',
  },
  'src/api-keys/': { layer: 'hub', what: 'API keys and their cached check' },
  'src/idempotency/': { layer: 'hub', what: "idempotency keys: a write repeated with the same key answers the first answer (REST, GraphQL, uploads, the connector)" },
  'src/files/': { layer: 'hub', what: 'stored files, uploads, image variants, storage backends' },
  'src/planning/': { layer: 'hub', what: 'days and weeks, checklists, perimeter tasks, day completion' },
  'src/settings/': { layer: 'hub', what: "each user's settings" },
  'src/trash/': { layer: 'hub', what: 'the trash: deleted records kept as snapshots, restore, purge' },
  'src/body/': { layer: 'domains', what: 'body measurements, progress photos' },
  'src/brain/': { layer: 'domains', what: 'notes, databases, forms (and their public routes), search, stats, export' },
  'src/finance/': { layer: 'domains', what: 'accounts, transactions, recurring bookings, CSV export' },
  'src/habits/': { layer: 'domains', what: 'habits of one\'s own: schedules and quotas, entries, day marks, states, streaks' },
  'src/journal/': { layer: 'domains', what: 'journal entries and questions' },
  'src/nutrition/': { layer: 'domains', what: 'meal templates, dinner plans, grocery lists' },
  'src/projects/': { layer: 'domains', what: 'projects, board columns, project tasks, deadlines, tags' },
  'src/reading/': { layer: 'domains', what: 'books, reading sessions' },
  'src/social/': { layer: 'domains', what: 'people, social happenings' },
  'src/tasks/': { layer: 'domains', what: 'tasks, categories, recurring series' },
  'src/training/': { layer: 'domains', what: 'exercises, training, mobility and cardio sessions' },
  'src/wellness/': { layer: 'domains', what: 'sleep, mood, water, steps, meditation' },
  'src/agenda/': { layer: 'cross-cutting features', what: 'the agenda across domains and its calendar feed' },
  'src/gamification/': { layer: 'cross-cutting features', what: 'XP, levels, achievements and the shop, from facts' },
  'src/undo/': { layer: 'cross-cutting features', what: 'undo: a write answers a short-lived token; its inverse calls the domain services (docs/undo.md)' },
  'src/live/': {
    layer: 'cross-cutting features',
    what: 'live updates: GraphQL subscriptions over WebSocket (graphql-ws), the event stream, their limits',
  },
  'src/insights/': {
    layer: 'cross-cutting features',
    what: 'daily aggregates of every domain, the nightly correlation job (Spearman, Benjamini–Hochberg), weekly summary, this day last year',
  },
  'src/portability/': { layer: 'cross-cutting features', what: 'export, import, account deletion' },
  'src/sync/': { layer: 'cross-cutting features', what: 'the change feed read (sync since a cursor) and its retention purge' },
  'src/quick-add/': {
    layer: 'cross-cutting features',
    what: 'quick add: one line of text read by a table of line classes (chrono-node for dates), written through the domain services',
  },
  'src/reminders/': {
    layer: 'cross-cutting features',
    what: 'reminders and notifications: kinds, scanner, delivery engine, channels (web push, email, HTTP)',
  },
  'src/webhooks/': {
    layer: 'cross-cutting features',
    what: 'webhook endpoints and deliveries from the events outbox: dispatcher, sender, retries',
  },
  'rest/': {
    layer: 'edges',
    what: 'REST route tables, Sofa surfaces and OpenAPI descriptions of /api/v1 and /api/public/v1',
  },
  'src/public-api/': { layer: 'edges', what: "the Public API's resolvers, key check and limits" },
  'src/connector/': {
    layer: 'edges',
    what: 'the assistant connector: OAuth server, scopes, MCP endpoint, tools, resources and prompts',
  },
  'src/app/': {
    layer: 'composition',
    what:
      "main, server, the HTTP app, the hand-written routes' mount, the auth limits, live updates' wiring, " +
      'the registries (entities, resolvers, loaders, reactors, seeds, jobs, list bounds, schema, ORM settings)',
  },
};

/** The folders of one layer, in the table's order. */
export function foldersOf(layer: LayerName, table = FOLDER_LAYERS): string[] {
  return Object.keys(table).filter((folder) => table[folder]!.layer === layer);
}

/** The README's architecture list is written between these markers (npm run generate; a drift test compares). */
export const ARCHITECTURE_LIST_START = '<!-- layers:start -->';
export const ARCHITECTURE_LIST_END = '<!-- layers:end -->';

const WIDTH = 108;
const INDENT = 2;
const COLUMN = 21;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The layers from the top, each with its folders and what they hold (a fenced block between the markers). */
export function architectureList(table = FOLDER_LAYERS): string {
  const lines: string[] = [];
  for (const { name, about } of [...LAYERS].reverse()) {
    lines.push(`${name}: ${about}`);
    for (const folder of foldersOf(name, table)) {
      const [first, ...rest] = wrap(table[folder]!.what, WIDTH - COLUMN);
      const head = `${' '.repeat(INDENT)}${folder}`;
      lines.push(head.length < COLUMN ? head.padEnd(COLUMN) + first : `${head}\n${' '.repeat(COLUMN)}${first}`);
      for (const more of rest) lines.push(' '.repeat(COLUMN) + more);
    }
  }
  return [ARCHITECTURE_LIST_START, '```', ...lines, '```', ARCHITECTURE_LIST_END].join('\n');
}

/** The README with its architecture list rewritten from the table. */
export function withArchitectureList(readme: string): string {
  const start = readme.indexOf(ARCHITECTURE_LIST_START);
  const end = readme.indexOf(ARCHITECTURE_LIST_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${ARCHITECTURE_LIST_START} … ${ARCHITECTURE_LIST_END} block`);
  return readme.slice(0, start) + architectureList() + readme.slice(end + ARCHITECTURE_LIST_END.length);
}
