import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A field's error as one phrase naming the field once: the services' and the schemas' messages mostly
 * start with the field's name already ("mood must be 1 to 10"), so that name is not put in front again;
 * a nested field is named by its whole path ("exercises.0.sets.1.reps must be …").
 */
export function fieldMessage(path: readonly (string | number)[], message: string): string {
  if (!path.length) return message;
  const whole = path.join('.');
  const last = String(path[path.length - 1]);
  if (message === last || message.startsWith(`${last} `)) return whole + message.slice(last.length);
  return `${whole} ${message}`;
}

/** The SDK's McpError writes "MCP error <code>: " into its message, and the client writes it again. */
const SDK_PREFIX = /^(MCP error -?\d+: )+/;

/**
 * JSON-RPC errors answered with their message once. A client (the SDK's among them) puts "MCP error
 * <code>:" in front of the message it receives; the server's McpError already holds that prefix, so
 * every error answer this server sends (ours and the SDK's own) loses it on the way out, at the
 * transport every answer passes through.
 */
export function plainErrorMessages(server: McpServer): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      const error = 'error' in message ? message.error : undefined;
      if (!error || typeof error.message !== 'string' || !SDK_PREFIX.test(error.message)) return send(message, options);
      return send({ ...message, error: { ...error, message: error.message.replace(SDK_PREFIX, '') } } as JSONRPCMessage, options);
    };
    return connect(transport);
  };
}
