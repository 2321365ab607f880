import { z } from 'zod';
import { canonicalJson, fingerprintOf, runOnce } from '../../../idempotency/run-once.js';
import type { ConnectorTool } from './tool.js';

/**
 * The connector's idempotency key (docs/idempotency.md): every writing tool takes an optional
 * `clientRequestId`; a call repeated with the same id and the same arguments within 24 h answers the
 * first call's answer without writing again, the id with other arguments (or another tool) is refused
 * IDEMPOTENCY_KEY_REUSED, and a repeat while the first still runs IDEMPOTENCY_KEY_IN_PROGRESS. Only a
 * success is kept: a failed call wrote nothing, so its retry runs again. Ids are the person's, apart
 * from the REST surfaces' Idempotency-Key values.
 */
export const CLIENT_REQUEST_ID = 'clientRequestId';

const clientRequestIdArg = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, `${CLIENT_REQUEST_ID} must be 1 to 255 visible ASCII characters`)
  .optional()
  .describe('Optional id of this call (a UUID): a retry with the same id and arguments within 24 h answers the first answer and writes nothing again.');

/** The tool with `clientRequestId` among its arguments and its run made once per id (a read-only tool as it is). */
export function withClientRequestId(tool: ConnectorTool): ConnectorTool {
  if (tool.annotations.readOnlyHint) return tool;
  return {
    ...tool,
    inputSchema: { ...tool.inputSchema, [CLIENT_REQUEST_ID]: clientRequestIdArg },
    async run(args, ctx) {
      const { [CLIENT_REQUEST_ID]: id, ...rest } = args as Record<string, unknown>;
      if (typeof id !== 'string') return tool.run(rest as never, ctx);
      const request = { userId: ctx.userId, key: `mcp:${id}`, fingerprint: fingerprintOf('mcp', tool.name, canonicalJson(rest)), now: new Date() };
      const once = await runOnce(
        ctx.em,
        request,
        () => tool.run(rest as never, ctx),
        (answer) => ({ status: 200, headers: {}, body: JSON.stringify(answer) }),
      );
      if (once.kind === 'ran') return once.result;
      if (once.kind === 'refused') throw once.error;
      return JSON.parse(once.answer.body) as object;
    },
  };
}
