import { beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { parse } from 'yaml';
import { sharedTestApp, type TestApp } from '../../../test/support/test-app.js';
import { signUp, type HttpClient } from '../../../test/support/http-client.js';
import { expectStatus } from '../../../test/support/expectations.js';
import { safeSegment } from './zip-names.js';

/** GET /brain/export: the zip read back with yauzl, each note's front matter parsed with yaml. */
let app: TestApp;

beforeAll(async () => {
  app = await sharedTestApp();
});

const api = '/api/v1/brain';

async function data(res: { status: number; text: string; body: any }, status = 200): Promise<any> {
  expect(res.status, res.text).toBe(status);
  return res.body.data;
}

interface ZipEntry {
  name: string;
  text: string;
  mtime: Date;
}

function readZip(buffer: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: ZipEntry[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          entries.push({ name: entry.fileName, text: '', mtime: entry.getLastModDate() });
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, text: Buffer.concat(chunks).toString('utf8'), mtime: entry.getLastModDate() });
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.readEntry();
    });
  });
}

async function exportZip(client: HttpClient): Promise<{ response: Response; entries: ZipEntry[] }> {
  const response = await fetch(`${app.url}${api}/export`, { headers: { cookie: client.cookie! } });
  expect(response.status).toBe(200);
  const entries = await readZip(Buffer.from(await response.arrayBuffer()));
  return { response, entries };
}

/** A Markdown file's front matter (parsed) and body. */
function markdown(text: string): { front: any; body: string } {
  const match = /^---\n([\s\S]*?)---\n\n([\s\S]*)$/.exec(text);
  expect(match, text).not.toBeNull();
  return { front: parse(match![1]!), body: match![2]! };
}

describe('GET /brain/export', () => {
  it('streams a zip: one Markdown file per note with front matter, folder paths as zip folders', async () => {
    const { client } = await signUp(app.url);
    const work = await data(await client.post(`${api}/folders`, { name: 'Work' }), 201);
    const meetings = await data(await client.post(`${api}/folders`, { name: 'Meetings: 2026/Q1', parentId: work.id }), 201);
    await data(await client.post(`${api}/folders`, { name: 'Empty' }), 201);
    const urgent = await data(await client.post(`${api}/tags`, { name: 'urgent' }), 201);
    const yamlish = await data(await client.post(`${api}/tags`, { name: 'a: "b" #c' }), 201);
    const standup = await data(
      await client.post(`${api}/notes`, { title: 'Stand-up', content: '# Notes\n\n- ship it\n', folderId: meetings.id, tagIds: [urgent.id, yamlish.id] }),
      201,
    );
    const tricky = await data(await client.post(`${api}/notes`, { title: '---\ntitle: "x" : yes', content: 'body', folderId: work.id }), 201);
    const same1 = await data(await client.post(`${api}/notes`, { title: 'Plan', content: 'one' }), 201);
    const same2 = await data(await client.post(`${api}/notes`, { title: 'plan', content: 'two' }), 201);
    const empty = await data(await client.post(`${api}/notes`, { title: '..' }), 201);
    await signUp(app.url).then(async ({ client: other }) => data(await other.post(`${api}/notes`, { title: 'Not mine' }), 201));

    const { response, entries } = await exportZip(client);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="brain-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers.get('cache-control')).toBe('private, no-store');

    const names = entries.map((e) => e.name).sort();
    expect(names).toEqual(
      [
        'notes/Empty/',
        'notes/Work/',
        'notes/Work/Meetings- 2026-Q1/',
        'notes/Work/Meetings- 2026-Q1/Stand-up.md',
        'notes/Work/--- title- -x- - yes.md',
        'notes/Plan.md',
        'notes/plan (2).md',
        'notes/Untitled.md',
      ].sort(),
    );
    const file = (name: string) => markdown(entries.find((e) => e.name === name)!.text);

    const s = file('notes/Work/Meetings- 2026-Q1/Stand-up.md');
    expect(s.front).toEqual({
      title: 'Stand-up',
      id: standup.id,
      folder: 'Work/Meetings: 2026/Q1',
      tags: ['urgent', 'a: "b" #c'],
      created: standup.createdAt,
      updated: standup.updatedAt,
    });
    expect(s.body).toBe('# Notes\n\n- ship it\n');
    expect(entries.find((e) => e.name === 'notes/Work/Meetings- 2026-Q1/Stand-up.md')!.mtime.getUTCFullYear()).toBe(new Date(standup.updatedAt).getUTCFullYear());

    const t = file('notes/Work/--- title- -x- - yes.md');
    expect(t.front).toMatchObject({ title: '---\ntitle: "x" : yes', id: tricky.id, folder: 'Work', tags: [] });
    expect(t.body).toBe('body\n');

    expect([file('notes/Plan.md').front.id, file('notes/plan (2).md').front.id].sort()).toEqual([same1.id, same2.id].sort());
    expect(file('notes/Untitled.md').front).toMatchObject({ title: '..', id: empty.id, folder: null });
    expect(file('notes/Untitled.md').body).toBe('');
  });

  it('answers an empty zip for an empty Brain, and 401 without a session', async () => {
    const { client } = await signUp(app.url);
    expect((await exportZip(client)).entries).toEqual([]);
    const res = await client.withoutCookie().get(`${api}/export`);
    expectStatus(res, 401, 'UNAUTHORIZED');
  });

  it('makes names safe for every file system', () => {
    expect(safeSegment('a/b\\c:d*e?f"g<h>i|j', 'x')).toBe('a-b-c-d-e-f-g-h-i-j');
    expect(safeSegment(' .hidden. ', 'x')).toBe('hidden');
    expect(safeSegment('..', 'Untitled')).toBe('Untitled');
    expect(safeSegment('tab\there\u0001', 'x')).toBe('tab here-');
    expect([...safeSegment('é'.repeat(150), 'x')]).toHaveLength(100);
    // Bidi controls and other invisible format characters are dropped; joiners of emoji stay.
    expect(safeSegment('invoice\u202Efdp.exe', 'x')).toBe('invoicefdp.exe');
    expect(safeSegment('\u2066a\u2069\u200E\u200F\u061C\u202A\u202B\u202C\u202D\u2067\u2068b\u200B\uFEFF\u00AD', 'x')).toBe('ab');
    expect(safeSegment('family \u{1F468}\u200D\u{1F469}', 'x')).toBe('family \u{1F468}\u200D\u{1F469}');
  });

  it('writes no bidi control into a zip entry name (notes, folders)', async () => {
    const { client } = await signUp(app.url);
    const folder = await data(await client.post(`${api}/folders`, { name: 'Bills\u2067 2026\u2069' }), 201);
    await data(await client.post(`${api}/notes`, { title: 'invoice\u202Efdp.exe', folderId: folder.id }), 201);
    const names = (await exportZip(client)).entries.map((e) => e.name);
    expect(names).toContain('notes/Bills 2026/invoicefdp.exe.md');
    for (const name of names) expect(name).not.toMatch(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
  });
});
