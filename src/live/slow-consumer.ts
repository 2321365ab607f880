import type { WebSocket } from 'ws';

export const SLOW_CONSUMER = { code: 1013, reason: 'Slow consumer' } as const;

/**
 * Holds a socket to `maxBufferedBytes` of unsent data, checked around every send: before it (the
 * client has not taken what was sent earlier) and right after it (this frame left more than that
 * unsent: dropped now rather than held until a next event that may never come). Either way the socket
 * is closed `1013 Slow consumer`; a send after that is refused by `ws` itself (its callback gets the
 * error, so graphql-ws's wait for it ends). No event's data is over `maxBufferedBytes` (the executor's
 * ceiling for the socket: a larger one becomes an error event), so a client that keeps up is not
 * dropped for the size of one answer.
 */
export function dropSlowConsumer(socket: WebSocket, maxBufferedBytes: number): void {
  const send = socket.send.bind(socket) as (...args: unknown[]) => void;
  const tooFull = () => {
    if (socket.bufferedAmount <= maxBufferedBytes || socket.readyState !== socket.OPEN) return false;
    socket.close(SLOW_CONSUMER.code, SLOW_CONSUMER.reason);
    return true;
  };
  socket.send = ((...args: unknown[]) => {
    tooFull();
    send(...args);
    tooFull();
  }) as WebSocket['send'];
}
