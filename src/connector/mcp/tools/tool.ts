import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { AppDeps } from '../../../core/context.js';
import { serviceFor, type RequestService, type ServiceScope } from '../../../core/request-services.js';
import type { Scope, ScopeArea } from '../../scopes/connector-scopes.js';
import { offeringUndo } from '../../../undo/undo-offers.js';

/** The undo offer of one tool call (docs/undo.md): which mutation its write is, and the token it offered. */
export interface UndoHolder {
  mutation?: string;
  token?: string;
}

/**
 * Who a tool call speaks for: the user of the access token, with a fresh entity manager per call, and
 * the scopes the connection holds (an answer keeps only what they can read: `runTool`).
 */
export interface ToolContext extends ServiceScope {
  userId: string;
  granted: readonly string[];
  /** A domain service on this call's entity manager, made as a resolver's is (serviceFor). */
  service<T>(service: RequestService<T>): T;
  /** The same call on another entity manager: a transaction's, or a fork that reads afresh. */
  on(em: EntityManager): ToolContext;
  /**
   * Runs the tool's write (`write` answers what its GraphQL mutation's resolver answers; `args` are that
   * mutation's arguments): when the tool names its mutation (`undoAs`) and that is an undo kind, the
   * write's offer is kept and the call's answer carries `undoToken` (undo-token.ts).
   */
  undoable<T>(args: Record<string, unknown>, write: () => Promise<T>): Promise<T>;
  /** This call's undo offer (shared by `on`). */
  readonly undo: UndoHolder;
}

/** The context of one tool run, resource read or prompt: a fresh entity manager each time. */
export function toolContext(deps: AppDeps, userId: string, granted: readonly string[], em: EntityManager = deps.orm.em.fork(), undo: UndoHolder = {}): ToolContext {
  const ctx: ToolContext = {
    deps,
    em,
    userId,
    granted,
    undo,
    service: (service) => serviceFor(ctx, service),
    on: (other) => toolContext(deps, userId, granted, other, undo),
    async undoable(args, write) {
      if (!undo.mutation) return write();
      const { result, token } = await offeringUndo(ctx, userId, undo.mutation, args, write);
      if (token) undo.token = token;
      return result;
    },
  };
  return ctx;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Every tool works on the user's own account only. */
  openWorldHint?: boolean;
}

/**
 * One assistant tool: its name (`<domain>_<act>`), title and description, zod shapes for its arguments
 * and its answer (the JSON schemas clients see; the answer is sent as JSON text and as
 * `structuredContent`, which the SDK checks against `outputSchema`), MCP annotations, the area whose
 * grant it needs (`null`: none, e.g. the clock), and `run`, which calls the domain service. A service
 * error (AppError) becomes an `isError` result with its code, message and details.
 */
export interface ConnectorTool<Shape extends z.ZodRawShape = z.ZodRawShape, Output extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  area: ScopeArea | null;
  /**
   * The GraphQL operation whose arguments this tool shares (`Mutation.createTask`): a test checks that
   * every argument of the same name has the same bounds (length, minimum, maximum) in both.
   */
  mirrors?: `Query.${string}` | `Mutation.${string}`;
  /**
   * The GraphQL mutation this tool's write is, for undo (docs/undo.md): its run calls the service through
   * `ctx.undoable(mutationArgs, write)`, and when that mutation is an undo kind the answer carries
   * `undoToken` (the `undo` tool takes it back). Its area is the area a token of that kind needs.
   */
  undoAs?: string;
  inputSchema: Shape;
  outputSchema: Output;
  annotations: ToolAnnotations;
  /**
   * The answer: an object matching `outputSchema` (checked at run time by the SDK on both ends; the
   * domain views are interfaces, which TypeScript will not match against the schema's index signatures).
   */
  run(args: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<object>;
}

/** Keeps a tool's argument and answer types checked against its shapes while the list holds tools of any shape. */
export function defineTool<Shape extends z.ZodRawShape, Output extends z.ZodRawShape>(tool: ConnectorTool<Shape, Output>): ConnectorTool {
  return tool as unknown as ConnectorTool;
}

/** The scope a tool needs: its area's write scope unless it only reads; null when it needs none. */
export function scopeOf(tool: ConnectorTool): Scope | null {
  return tool.area ? `${tool.area}:${tool.annotations.readOnlyHint ? 'read' : 'write'}` : null;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Adds a record (calling twice adds two). */
export const ADDITIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Sets a state (calling twice leaves what once does). */
export const SETS_STATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Removes a record. */
export const REMOVES: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
