import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';

/** The Express request and response a REST surface answers (Sofa's server context). */
export interface ServerContext {
  req: ExpressRequest;
  res: ExpressResponse;
}
