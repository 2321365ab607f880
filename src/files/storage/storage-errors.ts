import { AppError } from '../../core/errors.js';

/**
 * The file store (the S3 bucket) did not answer or failed on its side: 503, try again later. Nothing was
 * written (an upload's row is kept only after its bytes are stored). A refusal of this request by the
 * bucket (4xx, e.g. wrong credentials) stays a 500: retrying would not help.
 */
export class StorageUnavailableError extends AppError {
  constructor() {
    super('STORAGE_UNAVAILABLE', 503, 'The file store is unavailable: try again in a moment');
  }
}

/** A network failure or the store's own 5xx, as the AWS SDK reports them (no HTTP status: no answer). */
export function isStoreUnavailable(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return status === undefined || status >= 500;
}
