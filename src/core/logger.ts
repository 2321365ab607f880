import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; one root logger, children carry a request id. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'life-planner' } });
}
