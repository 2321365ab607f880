import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { AppDeps } from '../../../core/context.js';

/** Who a tool call speaks for: the user of the access token, with a fresh entity manager per call. */
export interface ToolContext {
  deps: AppDeps;
  em: EntityManager;
  userId: string;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Every tool works on the user's own account only. */
  openWorldHint?: boolean;
}

/**
 * One assistant tool: its name, title and description, a zod shape for its arguments (the JSON schema
 * clients see), MCP annotations, and `run`, which calls the domain service and returns what is
 * answered as JSON text. A service error (AppError) becomes an `isError` result with its message.
 */
export interface ConnectorTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  inputSchema: Shape;
  annotations: ToolAnnotations;
  run(args: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<unknown>;
}

/** Keeps a tool's argument types checked against its shape while the list holds tools of any shape. */
export function defineTool<Shape extends z.ZodRawShape>(tool: ConnectorTool<Shape>): ConnectorTool {
  return tool as unknown as ConnectorTool;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Adds a record (calling twice adds two). */
export const ADDITIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
