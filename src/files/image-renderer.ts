import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../core/logger.js';
import type { ResizedVariant } from './file-kinds.js';
import { ImageTooLargeError, type ImageSource, type RenderedVariant, type VariantOutcome } from './image-processing.js';

/**
 * Variants are rendered in a child process at a lower OS priority (issue 23 item 8): libvips keeps every
 * core busy while it decodes a large image, and in the service's own process that made sign-ins (argon2,
 * on the same cores) wait. The scheduler now serves the service first. The child is started with the
 * first image and ends after IDLE_MS without work, giving its memory back; a child that dies fails the
 * images in progress (the variant worker's backstop job retries them) and the next image starts another.
 */
export interface ImageRenderer {
  variant(source: ImageSource, mimeType: string, variant: ResizedVariant): Promise<RenderedVariant>;
  variants(source: ImageSource, mimeType: string, variants: readonly ResizedVariant[]): Promise<Map<ResizedVariant, VariantOutcome>>;
  close(): Promise<void>;
  /** The render process's pid while it runs (tests read its priority). */
  readonly pid: number | null;
}

export interface RenderRequest {
  id: number;
  kind: 'variant' | 'variants';
  /** A local path, or the bytes. */
  source: string | Uint8Array;
  mimeType: string;
  variants: ResizedVariant[];
}
export type WireOutcome = { ok: true; out: RenderedVariant } | { ok: false; error: { message: string; tooLarge: boolean } };
export interface RenderReply {
  id: number;
  outcomes: [ResizedVariant, WireOutcome][];
}

/** The render process could not answer (it died or could not start): no fault of the image, retried later. */
export class RenderProcessError extends Error {}

/** How long the child waits for more work before it ends. */
export const IDLE_MS = 10_000;

/**
 * The longest one image may take (the largest allowed, 256 MB decoded, takes a few seconds): past it the
 * process is ended and its work fails as a RenderProcessError, so one stuck image cannot hold the
 * variant queue, which makes one image at a time, for ever.
 */
export const RENDER_TIMEOUT_MS = 120_000;

/** The child's entry: the built file beside the service's build, or the source run through tsx. */
function childEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const built = /[\\/]dist[\\/]src[\\/]/.exec(here);
  if (built) return { file: join(here.slice(0, built.index), 'dist', 'src', 'files', 'image-render-child.js'), execArgv: [] };
  const source = join(dirname(here), 'image-render-child.ts');
  if (!existsSync(source)) throw new Error(`image render process entry not found: ${source}`);
  return { file: source, execArgv: ['--import', 'tsx'] };
}

const fromWire = (outcome: WireOutcome): VariantOutcome =>
  outcome.ok ? { ok: true, out: { ...outcome.out, data: Buffer.from(outcome.out.data) } } : { ok: false, error: outcome.error.tooLarge ? new ImageTooLargeError(outcome.error.message) : new Error(outcome.error.message) };

export function childProcessRenderer(logger: Logger, { idleMs = IDLE_MS, timeoutMs = RENDER_TIMEOUT_MS }: { idleMs?: number; timeoutMs?: number } = {}): ImageRenderer {
  let child: ChildProcess | null = null;
  let nextId = 1;
  let idle: NodeJS.Timeout | undefined;
  const pending = new Map<number, { resolve(reply: RenderReply): void; reject(error: Error): void }>();

  const stopChild = () => {
    if (!child) return;
    child.disconnect?.();
    child = null;
  };
  const settleIdle = () => {
    clearTimeout(idle);
    if (pending.size) return;
    child?.unref();
    (child?.channel as { unref?(): void } | undefined)?.unref?.();
    idle = setTimeout(stopChild, idleMs);
    idle.unref();
  };
  const start = (): ChildProcess => {
    const { file, execArgv } = childEntry();
    const started = fork(file, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    started.on('message', (reply: RenderReply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      waiting?.resolve(reply);
      settleIdle();
    });
    started.on('exit', (code, signal) => {
      if (child === started) child = null;
      if (pending.size) logger.warn({ code, signal }, 'the image render process ended with images in progress');
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new RenderProcessError(`the image render process ended (${signal ?? code})`));
      }
    });
    return started;
  };
  const send = (request: Omit<RenderRequest, 'id'>): Promise<RenderReply> => {
    clearTimeout(idle);
    child ??= start();
    child.ref();
    (child.channel as { ref?(): void } | undefined)?.ref?.();
    const id = nextId++;
    const sentTo = child;
    const timer = setTimeout(() => {
      if (!pending.has(id)) return;
      logger.warn({ timeoutMs }, 'an image took too long to render: the image render process is ended');
      sentTo.kill('SIGKILL'); // its exit fails everything it had
    }, timeoutMs);
    return new Promise<RenderReply>((resolve, reject) => {
      pending.set(id, { resolve: (reply) => (clearTimeout(timer), resolve(reply)), reject: (error) => (clearTimeout(timer), reject(error)) });
      child!.send({ ...request, id }, (error) => {
        if (!error) return;
        pending.delete(id);
        clearTimeout(timer);
        reject(new RenderProcessError(`the image render process could not be reached: ${error.message}`));
      });
    });
  };
  const wireSource = (source: ImageSource) => (typeof source === 'string' ? source : new Uint8Array(source.buffer, source.byteOffset, source.byteLength));

  return {
    async variant(source, mimeType, variant) {
      const reply = await send({ kind: 'variant', source: wireSource(source), mimeType, variants: [variant] });
      const outcome = fromWire(reply.outcomes[0]![1]);
      if (!outcome.ok) throw outcome.error;
      return outcome.out;
    },
    async variants(source, mimeType, variants) {
      const reply = await send({ kind: 'variants', source: wireSource(source), mimeType, variants: [...variants] });
      return new Map(reply.outcomes.map(([variant, outcome]) => [variant, fromWire(outcome)]));
    },
    async close() {
      clearTimeout(idle);
      stopChild();
    },
    get pid() {
      return child?.pid ?? null;
    },
  };
}
