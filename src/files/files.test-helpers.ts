import sharp from 'sharp';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readResult, type HttpClient, type HttpResult } from '../../test/support/http-client.js';
import type { TestApp } from '../../test/support/test-app.js';

/** A real image made by sharp: a gradient-ish pattern so the encoders have something to compress. */
export async function makeImage(format: 'jpeg' | 'png' | 'webp', width: number, height: number, options: { exifOrientation?: number; gps?: boolean } = {}): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = x < width / 2 ? 200 : 40; // left half blue-ish: orientation can be checked
    }
  }
  let image = sharp(raw, { raw: { width, height, channels: 3 } });
  if (options.exifOrientation) image = image.withMetadata({ orientation: options.exifOrientation });
  if (options.gps) image = image.withExifMerge({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 36/1' } });
  return image.toFormat(format).toBuffer();
}

/** A real, minimal one-page PDF (valid cross-reference table). */
export function makePdf(text = 'Hello'): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 18 Tf 20 50 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 20 50 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export interface Part {
  data: Buffer;
  fileName?: string;
  contentType?: string;
}

/** A real multipart/form-data POST through fetch, with this client's cookie. */
export async function postMultipart(client: HttpClient, path: string, fields: Record<string, string | Part>, extraHeaders: Record<string, string> = {}): Promise<HttpResult> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.data)], { type: value.contentType ?? 'application/octet-stream' }), value.fileName ?? 'upload.bin');
  }
  const headers: Record<string, string> = { ...extraHeaders };
  if (client.cookie) headers.cookie = client.cookie;
  const response = await fetch(client.baseUrl + path, { method: 'POST', body: form, headers });
  return readResult(response);
}

export function upload(client: HttpClient, data: Buffer, fileType: string, fileName = 'photo.jpg', contentType = 'image/jpeg') {
  return postMultipart(client, '/api/v1/files/upload', { fileType, file: { data, fileName, contentType } });
}

/** Fetches a URL handed out by the service; disk URLs name BASE_URL, which in tests is not the real port. */
export async function fetchHandedOut(app: TestApp, url: string, headers: Record<string, string> = {}): Promise<Response> {
  const parsed = new URL(url);
  const target = parsed.pathname.startsWith('/api/') && parsed.hostname === 'localhost' ? app.url + parsed.pathname + parsed.search : url;
  return fetch(target, { headers });
}

export async function dbRows(app: TestApp, sql: string, params: unknown[] = []): Promise<any[]> {
  return app.server.orm.em.fork().getConnection().execute(sql, params);
}

/** Every blob under the upload folder (staging included), relative paths. */
export async function blobsOnDisk(app: TestApp, root = join(app.dataDir, 'uploads')): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1)).sort();
}

/** Polls the file until its variants are all made (eager job), or fails after `timeoutMs`. */
export async function waitForVariants(client: HttpClient, fileId: string, count = 5, timeoutMs = 30_000): Promise<any[]> {
  const started = Date.now();
  for (;;) {
    const res = await client.graphql(`query($id: UUID!) { file(fileId: $id) { variants { variant status width height size storageKey error } } }`, { id: fileId });
    const variants = res.body.data?.file?.variants ?? [];
    if (variants.length >= count) return variants;
    if (Date.now() - started > timeoutMs) throw new Error(`variants not ready after ${timeoutMs} ms: ${JSON.stringify(variants)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `condition` every 50 ms until it holds, or fails after `timeoutMs`. */
export async function until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A hand-built multipart body, for file names a browser's FormData would escape. */
export async function postRawMultipart(client: HttpClient, path: string, parts: { name: string; fileName?: string; fileNameStar?: string; contentType?: string; data: Buffer | string }[]): Promise<HttpResult> {
  const boundary = `----lp${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.fileName !== undefined) head += `; filename="${part.fileName}"`;
    // RFC 5987 form: any character, control characters included, percent-encoded.
    if (part.fileNameStar !== undefined) head += `; filename*=UTF-8''${encodeURIComponent(part.fileNameStar)}`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (client.cookie) headers.cookie = client.cookie;
  const response = await fetch(client.baseUrl + path, { method: 'POST', body: Buffer.concat(chunks), headers });
  return readResult(response);
}

export { expectRule, expectValidation } from '../../test/support/expectations.js';
