import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

function parseEml(file: string, raw: string): OutboxMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  let body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { file, to: header('To'), subject: header('Subject'), text: body };
}

/** Every mail written to the outbox folder (SMTP_URL unset), oldest first. */
export async function readOutbox(dir: string): Promise<OutboxMail[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.eml')).sort();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(names.map(async (name) => parseEml(name, await readFile(join(dir, name), 'utf8'))));
}

export async function mailsTo(dir: string, address: string): Promise<OutboxMail[]> {
  return (await readOutbox(dir)).filter((m) => m.to.toLowerCase().includes(address.toLowerCase()));
}

/**
 * The token of the newest mail to `address` that links to `baseUrl + route`. Reset and verification
 * mails are sent after the answer, so this waits for one (up to `timeoutMs`).
 */
export async function tokenFromMail(dir: string, address: string, baseUrl: string, route: '/reset-password' | '/verify-email', timeoutMs = 10_000): Promise<string> {
  const escaped = (baseUrl + route).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`${escaped}\\?token=([A-Za-z0-9_%.-]+)`);
  const started = Date.now();
  let mails: OutboxMail[];
  for (;;) {
    mails = (await mailsTo(dir, address)).reverse();
    for (const mail of mails) {
      const match = re.exec(mail.text);
      if (match) return decodeURIComponent(match[1]!);
    }
    if (Date.now() - started > timeoutMs) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no mail to ${address} links to ${baseUrl}${route} (mails: ${mails.map((m) => m.subject).join(', ')})`);
}
