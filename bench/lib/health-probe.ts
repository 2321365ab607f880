/**
 * Asks the service's `/healthz` in a loop while other work runs: the longest round trip tells how long
 * the service's event loop was held (the answer itself costs nothing). `stop()` ends the loop and
 * gives that longest time in milliseconds.
 */
export function probeHealth(serviceUrl: string, pauseMs = 20): { stop(): Promise<number> } {
  let longest = 0;
  let probing = true;
  const loop = (async () => {
    while (probing) {
      const started = performance.now();
      await fetch(`${serviceUrl}/healthz`).then((r) => r.arrayBuffer());
      longest = Math.max(longest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  return {
    async stop() {
      probing = false;
      await loop;
      return longest;
    },
  };
}
