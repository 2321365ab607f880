/**
 * Reads again (every 50 ms) until `check` passes on what `read` answers, and answers that; fails after
 * `timeoutMs` with the last value. For state that settles in the background (a delivery recorded, a
 * row claimed).
 */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
