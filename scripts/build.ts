/**
 * Compiles the service (src/ and rest/, from src/app/main.ts, tests left out) to plain JavaScript under
 * dist/ with esbuild: `npm start` runs dist/src/app/main.js. The service then starts without a TypeScript
 * loader in the process (about 60 MB less memory than `node --import tsx`). esbuild transpiles exactly
 * like tsx (the tests' and scripts' loader): no type checking (that is `npm run typecheck`) and no
 * decorator metadata, which the code never relies on (see the stack notes).
 *
 * Our own modules are bundled into main.js, and what they import with `import()` into chunks beside it
 * (dist/src/chunks/), loaded when first imported: Node resolves, reads and links each ES module on its
 * own, and our ~390 files cost ~0.3 s of CPU at every start that way (issue 18). Packages stay
 * external (node_modules, resolved by Node as before). `keepNames` keeps every class's name: MikroORM
 * and TypeGraphQL name entities and types after them.
 *
 * Usage: tsx scripts/build.ts [--outdir <dir>]   (default: dist)
 */
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function outdirArgument(): string {
  const index = process.argv.indexOf('--outdir');
  return index > -1 && process.argv[index + 1] ? process.argv[index + 1]! : join(root, 'dist');
}

const outdir = outdirArgument();
await rm(outdir, { recursive: true, force: true });
const started = performance.now();
const result = await build({
  absWorkingDir: root,
  // The image render process (src/files/image-renderer.ts) is a process of its own, so an entry of its own.
  entryPoints: [join(root, 'src', 'app', 'main.ts'), join(root, 'src', 'files', 'image-render-child.ts')],
  outdir,
  outbase: root,
  bundle: true,
  packages: 'external',
  splitting: true,
  chunkNames: 'src/chunks/[name]-[hash]',
  keepNames: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
  metafile: true,
});

/*
 * V8 keeps every module's source text for as long as the process runs, and one character beyond
 * Latin-1 anywhere in a file makes it keep the whole file as two bytes a character: the two largest
 * chunks (~1.6 MB) held twice their size in an idle service (issue 36). esbuild escapes such characters
 * in strings, not in the comments it keeps, regular expression literals or raw template text. Comment
 * lines are escaped here (`\uXXXX`, the same text to a reader); other code spells them as escapes in
 * its source, and the build names any left.
 */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/u;
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*)/;
const escapeChar = (char: string) => char.split('').map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))) {
  const path = join(root, file);
  const text = await readFile(path, 'utf8');
  if (!BEYOND_LATIN1.test(text)) continue;
  const lines = text.split('\n');
  const left: number[] = [];
  lines.forEach((line, i) => {
    if (!BEYOND_LATIN1.test(line)) return;
    if (COMMENT_LINE.test(line)) lines[i] = line.replace(new RegExp(BEYOND_LATIN1, 'gu'), escapeChar);
    else left.push(i + 1);
  });
  await writeFile(path, lines.join('\n'));
  if (left.length) console.warn(`${relative(root, path)}: characters beyond Latin-1 on line(s) ${left.slice(0, 5).join(', ')}: V8 keeps the whole module as two-byte text; write them as \\u escapes`);
}

const inputs = Object.keys(result.metafile.inputs).length;
const outputs = Object.keys(result.metafile.outputs).length;
console.log(`built ${inputs} files into ${outputs} under ${relative(process.cwd(), outdir) || '.'} in ${Math.round(performance.now() - started)} ms`);
