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
import { rm } from 'node:fs/promises';
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
const inputs = Object.keys(result.metafile.inputs).length;
const outputs = Object.keys(result.metafile.outputs).length;
console.log(`built ${inputs} files into ${outputs} under ${relative(process.cwd(), outdir) || '.'} in ${Math.round(performance.now() - started)} ms`);
