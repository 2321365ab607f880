import {
  getNullableType,
  GraphQLError,
  isListType,
  Kind,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ParseOptions,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  visit,
} from 'graphql';
import { mapSchema, MapperKind } from '@graphql-tools/utils';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../core/pagination.js';
import { isPageItems, isPaged, listBound } from './list-bounds.js';

/**
 * What one operation may cost, checked before it runs, the same for /graphql (plain and persisted
 * queries) and for every REST route's fixed operation (operation-limits.test.ts runs each route table
 * through them). Sized so that the largest ordinary read (a week with its days, tasks and categories)
 * passes with room to spare, and a document multiplying it does not.
 */
export const OPERATION_LIMITS = {
  /** Lexical tokens in the document, counted while parsing (a larger one is never built). */
  maxTokens: 5000,
  /** Nesting of selections (introspection's own nesting is not counted; its cost is). */
  maxDepth: 10,
  /** Aliased fields anywhere in the operation. */
  maxAliases: 15,
  /** Fields selected at the root of the operation (aliases included). */
  maxRootFields: 20,
  /** `__schema` selections per operation. */
  maxSchemaIntrospections: 1,
  /** Directives anywhere in the operation. */
  maxDirectives: 20,
  /** Estimated values in the answer: each field 1, times its list bound (list-bounds.ts) or page size for a list. */
  maxCost: 5_000_000,
} as const;

/**
 * Size assumed for an introspection list (`__schema { types }`); every list of the app's own schema
 * declares its bound (src/app/list-bounds.ts) or takes a page size.
 */
export const INTROSPECTION_LIST_ESTIMATE = 10;

/** graphql-js counts tokens while it parses and stops past the limit. */
export const LIMITED_PARSE_OPTIONS: ParseOptions = { maxTokens: OPERATION_LIMITS.maxTokens };

/** A refusal, answered 400 before anything runs (error-body.ts turns it into VALIDATION_ERROR). */
export function operationLimitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

/** GraphQL Armor reports through callbacks; its messages start with a misleading "Syntax Error: ". */
function armor<T>(rule: (options: T) => ValidationRule, options: T): ValidationRule {
  return rule({
    ...options,
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(operationLimitError(error.message.replace(/^Syntax Error: /, '')))],
  });
}

function rootSelections(context: ValidationContext, selectionSet: SelectionSetNode, seen = new Set<string>()): { fields: number; schemas: number } {
  let fields = 0;
  let schemas = 0;
  for (const selection of selectionSet.selections) {
    let inner: SelectionSetNode | undefined;
    if (selection.kind === Kind.FIELD) {
      fields++;
      if (selection.name.value === '__schema') schemas++;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) inner = selection.selectionSet;
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      inner = context.getFragment(selection.name.value)?.selectionSet;
    }
    if (inner) {
      const counted = rootSelections(context, inner, seen);
      fields += counted.fields;
      schemas += counted.schemas;
    }
  }
  return { fields, schemas };
}

/**
 * Root fields and `__schema` per operation: the one limit no maintained rule offers (aliases bound
 * repeated fields anywhere; this bounds how many separate reads one request starts).
 */
const maxRootFieldsRule: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    const { fields, schemas } = rootSelections(context, operation.selectionSet);
    if (fields > OPERATION_LIMITS.maxRootFields) {
      context.reportError(operationLimitError(`Root field limit of ${OPERATION_LIMITS.maxRootFields} exceeded, found ${fields}.`));
    }
    if (schemas > OPERATION_LIMITS.maxSchemaIntrospections) {
      context.reportError(operationLimitError(`Introspection limit of ${OPERATION_LIMITS.maxSchemaIntrospections} __schema per operation exceeded, found ${schemas}.`));
    }
  },
});

const shapeRules: ValidationRule[] = [
  armor(maxDepthRule, { n: OPERATION_LIMITS.maxDepth }),
  armor(maxAliasesRule, { n: OPERATION_LIMITS.maxAliases }),
  armor(maxDirectivesRule, { n: OPERATION_LIMITS.maxDirectives }),
  maxRootFieldsRule,
];

function pageSize(limit: unknown, worstCase: boolean): number {
  if (typeof limit === 'number' && limit > 0) return Math.min(limit, MAX_PAGE_SIZE);
  return worstCase ? MAX_PAGE_SIZE : DEFAULT_PAGE_SIZE;
}

/**
 * Each field costs 1 plus its selection times how many values it stands for: a field taking `limit`
 * (a page) counts its page size, the page's own `items` then once; another list counts its declared
 * bound (list-bounds.ts), the most it can ever answer.
 */
const estimateCost: ComplexityEstimator = ({ type, field, args, childComplexity, context }) => {
  if (isPaged(field)) return 1 + childComplexity * pageSize(args.limit, context?.worstCase === true);
  if (!isListType(getNullableType(field.type)) || ('getFields' in type && isPageItems(field, type.getFields()))) return 1 + childComplexity;
  const bound = listBound(field) ?? (type.name.startsWith('__') ? INTROSPECTION_LIST_ESTIMATE : MAX_PAGE_SIZE);
  return 1 + childComplexity * bound;
};

/** The estimated cost of the operation that would run (variables decide page sizes). */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null, variables?: Record<string, unknown> | null): number {
  return getComplexity({ schema, query: document, operationName: operationName ?? undefined, variables: variables ?? {}, estimators: [estimateCost] });
}

const relaxedSchemas = new WeakMap<GraphQLSchema, GraphQLSchema>();

/** The schema with every argument optional, so a document can be costed without its variables. */
function relaxedSchema(schema: GraphQLSchema): GraphQLSchema {
  let relaxed = relaxedSchemas.get(schema);
  if (!relaxed) {
    relaxed = mapSchema(schema, { [MapperKind.ARGUMENT]: (argument) => ({ ...argument, type: getNullableType(argument.type) }) });
    relaxedSchemas.set(schema, relaxed);
  }
  return relaxed;
}

/**
 * The cost of a document whatever its variables hold (a page size from a variable counts as the
 * largest page): the bound a REST route's fixed operation is checked against.
 */
export function worstCaseCost(schema: GraphQLSchema, document: DocumentNode): number {
  const withoutVariables = visit(document, {
    VariableDefinition: () => null,
    Argument: (node) => (JSON.stringify(node.value).includes('"Variable"') ? null : undefined),
  });
  return getComplexity({ schema: relaxedSchema(schema), query: withoutVariables, estimators: [estimateCost], context: { worstCase: true } });
}

const shapeErrorsBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly GraphQLError[]>>();

/** Depth, aliases, directives and root fields: fixed by the document, so checked once per document. */
function shapeErrors(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  let byDocument = shapeErrorsBySchema.get(schema);
  if (!byDocument) shapeErrorsBySchema.set(schema, (byDocument = new WeakMap()));
  let errors = byDocument.get(document);
  if (!errors) byDocument.set(document, (errors = validate(schema, document, shapeRules)));
  return errors;
}

/**
 * Variables the cost depends on: page sizes (`limit`) and `@include`/`@skip` conditions. Other
 * variables (a date, an id) change nothing in the estimate.
 */
function costVariableNames(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: Parameters<typeof visit>[0]) => visit(node, { Variable: (variable) => void names.add(variable.name.value) });
  visit(document, {
    Argument: (node) => void (node.name.value === 'limit' && collect(node.value)),
    Directive: (node) => void collect(node),
  });
  return [...names].sort();
}

interface CostCache {
  variableNames: string[];
  costs: Map<string, number>;
}

/** Costs already estimated per document and values of its cost variables (the walk takes about a millisecond on a week read). */
const costCachesBySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, CostCache>>();
const MAX_CACHED_COSTS = 100;

function cachedOperationCost(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null, variables?: Record<string, unknown> | null): number {
  let byDocument = costCachesBySchema.get(schema);
  if (!byDocument) costCachesBySchema.set(schema, (byDocument = new WeakMap()));
  let cache = byDocument.get(document);
  if (!cache) byDocument.set(document, (cache = { variableNames: costVariableNames(document), costs: new Map() }));
  const key = JSON.stringify([operationName ?? null, ...cache.variableNames.map((name) => variables?.[name] ?? null)]);
  let cost = cache.costs.get(key);
  if (cost === undefined) {
    cost = operationCost(schema, document, operationName, variables);
    // Callers choose the values: keep the cache small rather than let it grow with them.
    if (cache.costs.size >= MAX_CACHED_COSTS) cache.costs.clear();
    cache.costs.set(key, cost);
  }
  return cost;
}

/**
 * The first limit the operation breaks, or null. Every execution path calls this before running a
 * document, through the one executor (limited-execution.ts).
 */
export function operationLimitViolation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
  variables?: Record<string, unknown> | null,
): GraphQLError | null {
  const shape = shapeErrors(schema, document);
  if (shape.length) return shape[0]!;
  let cost: number;
  try {
    cost = cachedOperationCost(schema, document, operationName, variables);
  } catch (error) {
    // A bad variable value fails the walk as it fails execution, which reports it before running
    // anything; any other failure (the walk's own node limit, for fragments spread into a huge tree)
    // is a refusal.
    const message = (error as Error).message;
    return message.startsWith('Variable "$') ? null : operationLimitError(`Cost could not be estimated: ${message}`);
  }
  if (cost > OPERATION_LIMITS.maxCost) return operationLimitError(`Cost limit of ${OPERATION_LIMITS.maxCost} exceeded, estimated ${cost}.`);
  return null;
}
