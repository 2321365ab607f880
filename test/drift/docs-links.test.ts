import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The text outside fenced code blocks and inline code spans, where a `[x](y)` is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count ? `${slug}-${count}` : slug);
  }
  return found;
}

/** Every relative link of a page (`[text](target)`, `[name]: target`), with the page it is on. */
function relativeLinks(page: string): string[] {
  const text = prose(readFileSync(join(root, page), 'utf8'));
  const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with a link: a missing file, or an anchor no heading of its page makes; null when it holds. */
function brokenBecause(page: string, target: string): string | null {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path ? join(dirname(join(root, page)), decodeURIComponent(path)) : join(root, page);
  if (!existsSync(file)) return `${relative(root, file)} does not exist`;
  if (anchor === undefined || !file.endsWith('.md')) return null;
  return anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor).toLowerCase()) ? null : `${relative(root, file)} has no heading #${anchor}`;
}

it('every relative link of the README and the docs pages points to a file that exists, and every #anchor to one of its headings', () => {
  const links = pages.flatMap((page) => relativeLinks(page).map((target) => ({ page, target })));
  expect(links.length).toBeGreaterThan(pages.length);
  const broken = links.flatMap(({ page, target }) => {
    const because = brokenBecause(page, target);
    return because ? [`${page}: ${target} (${because})`] : [];
  });
  expect(broken).toEqual([]);
});

it('makes anchors as GitHub does', () => {
  expect([...anchors('# Operations\n## Dependencies: what happens when one is down\n## `TRUST_PROXY` and [proxies](x.md)\n## Settings\n## Settings\n```\n# not a heading\n```')]).toEqual([
    'operations',
    'dependencies-what-happens-when-one-is-down',
    'trust_proxy-and-proxies',
    'settings',
    'settings-1',
  ]);
});

it('names no issue numbers in the README and the docs pages (a page says what holds, not which ticket asked for it)', () => {
  const mentions = pages.flatMap((page) =>
    readFileSync(join(root, page), 'utf8')
      .split('\n')
      .flatMap((line, index) => (/\bissues? #?\d/i.test(line) ? [`${page}:${index + 1}: ${line.trim()}`] : [])),
  );
  expect(mentions).toEqual([]);
});
