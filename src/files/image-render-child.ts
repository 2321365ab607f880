import { setPriority } from 'node:os';
import { ImageTooLargeError, renderVariant, renderVariants, type ImageSource, type RenderedVariant } from './image-processing.js';
import type { ResizedVariant } from './file-kinds.js';
import type { RenderReply, RenderRequest, WireOutcome } from './image-renderer.js';

/*
 * The image render process (src/files/image-renderer.ts starts it): libvips decodes and resizes here, at
 * the lowest scheduling priority (nice 19), so that on a small machine a sign-in (argon2) or any request
 * does not wait behind a large image's pixels (`npm run bench -- image-burst`: nice 10 left sign-in p99
 * at ~117 ms during a short burst, 19 at 68-107 ms, and 68-84 ms over a long one). Set before libvips
 * starts its threads, which inherit it.
 * It ends with its parent (the IPC channel closing).
 */
setPriority(19);

const failure = (error: unknown): WireOutcome => ({
  ok: false,
  error: { message: error instanceof Error ? error.message : String(error), tooLarge: error instanceof ImageTooLargeError },
});
const success = (out: RenderedVariant): WireOutcome => ({ ok: true, out });

async function answer(request: RenderRequest): Promise<RenderReply> {
  const source: ImageSource = typeof request.source === 'string' ? request.source : Buffer.from(request.source);
  if (request.kind === 'variant') {
    try {
      return { id: request.id, outcomes: [[request.variants[0]!, success(await renderVariant(source, request.mimeType, request.variants[0]!))]] };
    } catch (error) {
      return { id: request.id, outcomes: [[request.variants[0]!, failure(error)]] };
    }
  }
  const outcomes = await renderVariants(source, request.mimeType, request.variants);
  return { id: request.id, outcomes: [...outcomes].map(([variant, outcome]): [ResizedVariant, WireOutcome] => [variant, outcome.ok ? success(outcome.out) : failure(outcome.error)]) };
}

process.on('message', (request: RenderRequest) => {
  void answer(request).then((reply) => process.send!(reply));
});
process.on('disconnect', () => process.exit(0));
