import {
  getNamedType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { ANONYMOUS, API_CALLER } from '../core/authorization.js';

/*
 * Relation fields (Week.days, Day.checklist, Day.tasks, Task.category, …) on a thin path.
 *
 * Why: TypeGraphQL wraps every `@FieldResolver` in a handler that, per parent row, looks up the resolver
 * instance, sorts and maps its parameters, copies the root into a new instance of its class and, on a
 * class declaring `@Authorized()`, runs the auth check again through an async middleware chain. A week
 * read calls these a few hundred times (9.8% of its CPU). Access is already checked once at the root
 * operation (every root declares it: src/core/authorization.ts), and no field resolver has middleware of
 * its own, so a field resolver whose only check is "signed in" is called straight: same method, same
 * instance, same parameters, the root as the loaders returned it.
 *
 * Kept on TypeGraphQL's path: a field with a role of its own (a plan feature), with middleware, with
 * arguments (they are converted and validated there), and every field of a type an anonymous or API-key
 * root can answer (there the field's own "signed in" check is not implied by the root's).
 */

/** The TypeGraphQL field-resolver metadata this module reads (its public storage, not typed for export). */
interface FieldResolverMeta {
  target: Function;
  methodName: string;
  schemaName: string;
  kind: string;
  roles?: readonly string[];
  middlewares: readonly unknown[];
  getObjectType?: () => Function;
  params: readonly ParamMeta[];
}

interface ParamMeta {
  index: number;
  kind: string;
  propertyName?: string;
  options?: { arg?: unknown };
  resolver?: (data: { root: unknown; args: unknown; context: unknown; info: unknown }) => unknown;
}

type ParamGetter = (root: any, args: any, context: any, info: any) => unknown;

/** The fields put on the thin path (read by the schema test; later wrappers keep calling the thin resolve). */
const thinFields = new WeakSet<object>();

export function isThinField(field: object): boolean {
  return thinFields.has(field);
}

/** How one parameter is read, or undefined when only TypeGraphQL's path can supply it (arguments). */
function paramGetter(param: ParamMeta): ParamGetter | undefined {
  const prop = param.propertyName;
  switch (param.kind) {
    case 'root':
      return prop ? (root) => root[prop] : (root) => root;
    case 'context':
      return prop ? (_root, _args, context) => context[prop] : (_root, _args, context) => context;
    case 'info':
      return (_root, _args, _context, info) => info;
    case 'custom': {
      const { resolver } = param;
      if (param.options?.arg || !resolver) return undefined;
      return (root, args, context, info) => resolver({ root, args, context, info });
    }
    default:
      return undefined;
  }
}

/** The plain resolver: the method on one instance of its class, its parameters read in order. */
function thinResolver(meta: FieldResolverMeta, instance: object): GraphQLFieldResolver<unknown, unknown> | undefined {
  const getters: ParamGetter[] = [];
  for (const param of [...meta.params].sort((a, b) => a.index - b.index)) {
    const getter = paramGetter(param);
    if (!getter) return undefined;
    getters.push(getter);
  }
  const method = (instance as Record<string, (...values: unknown[]) => unknown>)[meta.methodName]!;
  const [first, second] = getters;
  let resolve: GraphQLFieldResolver<unknown, unknown>;
  if (getters.length === 1) resolve = (root, args, context, info) => method.call(instance, first!(root, args, context, info));
  else if (getters.length === 2) {
    resolve = (root, args, context, info) => method.call(instance, first!(root, args, context, info), second!(root, args, context, info));
  } else resolve = (root, args, context, info) => method.apply(instance, getters.map((get) => get(root, args, context, info)));
  return resolve;
}

/** Types an anonymous or API-key root operation can answer, through any depth of fields. */
function typesOpenToNonSessions(schema: GraphQLSchema): Set<string> {
  const storage = getMetadataStorage();
  const openRoots = new Set(
    [...storage.queries, ...storage.mutations, ...storage.subscriptions]
      .filter((r) => r.roles?.some((role) => role === ANONYMOUS || role === API_CALLER))
      .map((r) => r.schemaName),
  );
  const open = new Set<string>();
  const visit = (type: GraphQLNamedType) => {
    if (open.has(type.name)) return;
    open.add(type.name);
    if (isObjectType(type) || isInterfaceType(type)) for (const field of Object.values(type.getFields())) visit(getNamedType(field.type));
    if (isUnionType(type)) for (const member of type.getTypes()) visit(member);
    if (isInterfaceType(type)) for (const impl of schema.getPossibleTypes(type)) visit(impl);
  };
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) if (openRoots.has(field.name)) visit(getNamedType(field.type));
  }
  return open;
}

/**
 * Puts the eligible field resolvers of `resolvers` on the thin path, in place (the schema's own field
 * objects, as applyListBounds does). Call right after buildSchema, with no global middlewares.
 */
export function thinFieldResolvers(schema: GraphQLSchema, resolvers: readonly Function[]): GraphQLSchema {
  const storage = getMetadataStorage();
  const open = typesOpenToNonSessions(schema);
  const instances = new Map<Function, object>();
  for (const meta of storage.fieldResolvers as unknown as FieldResolverMeta[]) {
    if (!resolvers.includes(meta.target) || meta.kind !== 'external' || meta.middlewares.length) continue;
    if (meta.roles && meta.roles.length) continue;
    const objectClass = meta.getObjectType?.();
    const typeName = storage.objectTypes.find((t) => t.target === objectClass)?.name;
    if (!typeName || open.has(typeName)) continue;
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[meta.schemaName] : undefined;
    if (!field || field.args.length) continue;
    let instance = instances.get(meta.target);
    if (!instance) {
      // TypeGraphQL's default container keeps one instance per resolver class too.
      instance = new (meta.target as new () => object)();
      instances.set(meta.target, instance);
    }
    const resolve = thinResolver(meta, instance);
    if (!resolve) continue;
    field.resolve = resolve;
    thinFields.add(field);
  }
  return schema;
}
