import { open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The head of a mail is what names its recipients; nothing past it is read. */
const HEAD_BYTES = 16 * 1024;
const ADDRESS = /[^\s<>,";:]+@[^\s<>,";:]+/g;

async function head(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.search(/\r?\n\r?\n/);
    return (end < 0 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  } finally {
    await file.close();
  }
}

/** Addresses in the To, Cc and Bcc headers of a mail's head. */
function recipients(mailHead: string): string[] {
  const lines = mailHead.split(/\r?\n/).filter((line) => /^(to|cc|bcc):/i.test(line));
  return lines.flatMap((line) => line.slice(line.indexOf(':') + 1).match(ADDRESS) ?? []).map((a) => a.toLowerCase());
}

/**
 * Removes every outbox mail (.eml, SMTP_URL unset) addressed to `address`: a deleted account's reset
 * and verification mails go with it. Returns how many. A missing folder has nothing to remove.
 */
export async function removeOutboxMailsTo(dir: string, address: string): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.eml'));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return 0;
    throw error;
  }
  const wanted = address.toLowerCase();
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (!recipients(await head(path)).includes(wanted)) continue;
      await unlink(path);
      removed += 1;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error; // removed meanwhile
    }
  }
  return removed;
}
