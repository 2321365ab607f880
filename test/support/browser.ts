import chromium from '@sparticuz/chromium';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';

/**
 * Real headless Chromium for the HTML pages' tests, shipped inside the `@sparticuz/chromium` npm package
 * (no OS package, no download at install). A browser that cannot start fails the test: never a skip.
 */

const require = createRequire(import.meta.url);
/** The package's folder (its `exports` hide package.json): build/cjs/index.cjs → ../.. */
const PACKAGE_DIR = dirname(dirname(dirname(require.resolve('@sparticuz/chromium'))));
const VERSION = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
/**
 * Where the browser is unpacked (~200 MB), one folder per package version: the package reuses any
 * `$TMPDIR/chromium` without checking its version, so it never unpacks into the shared temp folder.
 */
const CACHE_DIR = join(PACKAGE_DIR, '..', '..', '.cache', 'life-planner-chromium');
const INSTALL_DIR = join(CACHE_DIR, VERSION);

/** Flags of the package minus the ones that weaken the page's security model (tests need it real). */
const WEAKENING = new Set(['--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials']);
const EXTRA_FLAGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let unpacking: Promise<string> | undefined;

/**
 * The unpacked browser's path. Test files run in parallel processes: each unpacks into a folder of its
 * own and renames it into place; a loser of that race drops its copy and uses the winner's.
 */
function executablePath(): Promise<string> {
  return (unpacking ??= (async () => {
    const binary = join(INSTALL_DIR, 'chromium');
    if (existsSync(binary)) return binary;
    await mkdir(CACHE_DIR, { recursive: true });
    const staging = await mkdtemp(join(CACHE_DIR, `.unpack-${VERSION}-`));
    // The package unpacks into os.tmpdir(), read synchronously when the call starts: point it at the
    // staging folder for that moment only.
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    let pending: Promise<string>;
    try {
      pending = chromium.executablePath();
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    try {
      await pending;
      await rename(staging, INSTALL_DIR);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(binary)) throw error;
    }
    return binary;
  })());
}

/** Starts headless Chromium (the caller closes it). Throws, with the reason, when it cannot start. */
export async function launchBrowser(): Promise<Browser> {
  const args = [...chromium.args.filter((flag) => !WEAKENING.has(flag)), ...EXTRA_FLAGS];
  try {
    return await playwright.launch({ executablePath: await executablePath(), args, headless: true });
  } catch (error) {
    unpacking = undefined;
    throw new Error(`Headless Chromium (@sparticuz/chromium ${VERSION}) did not start: ${(error as Error).message}`);
  }
}

/**
 * Records every request the page makes outside `origin` (scripts, styles, fonts, images, fetches,
 * workers). Assert the returned list is empty once the page has done its work.
 */
export function externalRequests(page: Page, origin: string): string[] {
  const allowed = new URL(origin).origin;
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== allowed) outside.push(url);
  });
  return outside;
}

/** Uncaught errors in the page's scripts; assert it stays empty. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
