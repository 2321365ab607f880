/**
 * The settings table of docs/operations.md, read from src/core/config.ts itself: every environment
 * variable it reads (`readInt(env, 'NAME', …)` and the other readers, `env.NAME`), its default and
 * accepted values from the read call, and its meaning from the doc comment that starts with its name
 * (`/** NAME: meaning *\/`, or `/** NAME (default text): meaning *\/` when the code's default is not a
 * plain value). A setting added to config.ts joins the table on the next `npm run generate`;
 * test/drift/settings-table.test.ts fails while the checked-in table differs or a setting has no meaning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { markdownTable, withBlock, type GeneratedBlock } from './generated-block.js';

export const SETTINGS_TABLE: GeneratedBlock = {
  page: 'docs/operations.md',
  start: '<!-- settings-table:start (npm run generate; from src/core/config.ts) -->',
  end: '<!-- settings-table:end -->',
};
export const CONFIG_SOURCE = 'src/core/config.ts';

export interface Setting {
  name: string;
  /** Markdown: a code span, or "unset". */
  default: string;
  accepts: string;
  meaning: string;
}

interface Read {
  name: string;
  reader: string | null;
  args: readonly ts.Expression[];
  /** The right side of `env.NAME || x` / `readUrl(…) ?? x`. */
  fallback: ts.Expression | null;
}

const ENV_NAME = /^[A-Z][A-Z0-9_]+$/;

/** `env.NAME` or `reader(env, 'NAME', …)`; null for anything else. */
function readAt(node: ts.Node): Read | null {
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'env' && ENV_NAME.test(node.name.text)) {
    return { name: node.name.text, reader: null, args: [], fallback: fallbackOf(node) };
  }
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.arguments.length >= 2) {
    const [env, name] = node.arguments;
    if (env && ts.isIdentifier(env) && env.text === 'env' && name && ts.isStringLiteral(name) && ENV_NAME.test(name.text)) {
      return { name: name.text, reader: node.expression.text, args: node.arguments.slice(2), fallback: fallbackOf(node) };
    }
  }
  return null;
}

/** Through `?.trim()`, `.replace(…)` and the like up to a `||` or `??` whose left side this is. */
function fallbackOf(node: ts.Node): ts.Expression | null {
  let at: ts.Node = node;
  while (ts.isPropertyAccessExpression(at.parent) || (ts.isCallExpression(at.parent) && at.parent.expression === at) || ts.isNonNullExpression(at.parent)) at = at.parent;
  const parent = at.parent;
  if (ts.isBinaryExpression(parent) && parent.left === at && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(parent.operatorToken.kind)) return parent.right;
  return null;
}

/** Variables holding one setting (`const port = readInt(env, 'PORT', …)`), so a default computed from them names the setting. */
function settingVariables(file: ts.SourceFile): Map<string, string> {
  const variables = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const names = new Set<string>();
      const collect = (inner: ts.Node): void => {
        const read = readAt(inner);
        if (read) names.add(read.name);
        ts.forEachChild(inner, collect);
      };
      collect(node.initializer);
      if (names.size === 1) variables.set(node.name.text, [...names][0]!);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return variables;
}

/** An expression as a reader would write the value: literals plain, setting variables as `$NAME`. */
function valueText(expression: ts.Expression, variables: Map<string, string>): string | null {
  if (ts.isAsExpression(expression)) return valueText(expression.expression, variables);
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) return expression.text;
  if (ts.isNumericLiteral(expression)) return expression.text.replace(/_/g, '');
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return 'true';
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return 'false';
  if (ts.isIdentifier(expression) && expression.text === 'undefined') return null;
  if (ts.isArrayLiteralExpression(expression)) {
    const items = expression.elements.map((element) => valueText(element as ts.Expression, variables));
    return items.every((item) => item !== null) && items.length ? items.join(',') : null;
  }
  let text = expression.getText();
  const identifiers: ts.Identifier[] = [];
  const collect = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && variables.has(node.text)) identifiers.push(node);
    ts.forEachChild(node, collect);
  };
  collect(expression);
  const offset = expression.getStart();
  for (const identifier of identifiers.reverse()) {
    text = `${text.slice(0, identifier.getStart() - offset)}$${variables.get(identifier.text)}${text.slice(identifier.end - offset)}`;
  }
  return text
    .replace(/\$\{\$([A-Z0-9_]+)\}/g, '$$$1')
    .replace(/^`|`$/g, '')
    .replace(/(\d)_(?=\d)/g, '$1');
}

const code = (text: string) => `\`${text}\``;

/** What the read call tells of the value: its default and the values it takes. */
function describeRead(read: Read, variables: Map<string, string>): { default: string | null; accepts: string } {
  const value = (index: number) => {
    const expression = read.args[index];
    return expression ? valueText(expression, variables) : null;
  };
  const literals = (index: number) => {
    const expression = read.args[index];
    const list = expression && ts.isAsExpression(expression) ? expression.expression : expression;
    return list && ts.isArrayLiteralExpression(list) ? list.elements.map((element) => valueText(element as ts.Expression, variables) ?? element.getText()) : [];
  };
  const fallback = read.fallback ? valueText(read.fallback, variables) : null;
  switch (read.reader) {
    case 'readInt':
      return { default: value(0), accepts: `whole number${Number(value(1) ?? 0) > 0 ? ` ≥ ${value(1)}` : ''}` };
    case 'readIntUpTo':
      return { default: value(0), accepts: `whole number ${value(1)}–${value(2)}` };
    case 'readBool':
      return { default: value(0), accepts: '`true` or `false`' };
    case 'readEnum':
      return { default: value(1), accepts: literals(0).map(code).join(', ') };
    case 'readList':
      return { default: value(0), accepts: 'comma-separated list' };
    case 'readUrl':
      return { default: fallback, accepts: `${literals(0).map(code).join(' or ')} URL` };
    case 'readOrigins':
      return { default: fallback, accepts: 'comma-separated origins' };
    case 'readVapidKey':
      return { default: fallback, accepts: `base64url of ${value(0)} bytes` };
    case null:
      return { default: fallback, accepts: 'text' };
    default:
      return { default: value(0) ?? fallback, accepts: '' };
  }
}

/** Doc comments that start with one or more setting names: `NAME: meaning`, `NAME / OTHER (default text): meaning`. */
function meanings(source: string): Map<string, { meaning: string; default: string | null }> {
  const found = new Map<string, { meaning: string; default: string | null }>();
  for (const [, body] of source.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const text = body!.replace(/^\s*\*\s?/gm, ' ').replace(/\s+/g, ' ').trim();
    const head = /^([A-Z][A-Z0-9_]+(?: \/ [A-Z][A-Z0-9_]+)*)(?: \(default ([^)]*)\))?: (.+)$/.exec(text);
    if (!head) continue;
    for (const name of head[1]!.split(' / ')) {
      if (!found.has(name)) found.set(name, { meaning: head[3]!, default: head[2] ?? null });
    }
  }
  return found;
}

/** Every setting config.ts reads, by name. */
export function settingsOf(source: string): Setting[] {
  const file = ts.createSourceFile(CONFIG_SOURCE, source, ts.ScriptTarget.Latest, true);
  const variables = settingVariables(file);
  const described = new Map<string, { default: string | null; accepts: string; byReader: boolean }>();
  const visit = (node: ts.Node): void => {
    const read = readAt(node);
    if (read) {
      const next = { ...describeRead(read, variables), byReader: read.reader !== null };
      const known = described.get(read.name);
      // A name read twice (a bare `env.NAME` check beside its reader): the reader's read tells more.
      const first = known && (known.byReader || !next.byReader) ? known : next;
      const second = first === next ? known : next;
      described.set(read.name, { ...first, default: first.default ?? second?.default ?? null });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const documented = meanings(source);
  return [...described.keys()].sort().map((name) => {
    const read = described.get(name)!;
    const doc = documented.get(name);
    const fallback = doc?.default ?? (read.default === null || read.default === '' ? null : code(read.default));
    return { name, default: fallback ?? 'unset', accepts: read.accepts, meaning: doc?.meaning ?? '' };
  });
}

export function settingsTable(source: string): string {
  const rows = settingsOf(source).map((setting) => [code(setting.name), setting.default, setting.accepts, setting.meaning]);
  return markdownTable(['setting', 'default', 'accepts', 'meaning'], rows);
}

/** The page's text with its settings table replaced by the one config.ts gives now. */
export function withSettingsTable(page: string, configSource = readFileSync(join(import.meta.dirname, '..', CONFIG_SOURCE), 'utf8')): string {
  return withBlock(page, SETTINGS_TABLE, settingsTable(configSource));
}
