import {
  getNamedType,
  getOperationAST,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { Extensions } from 'type-graphql';

/*
 * Which operations the answer cache (answer-cache.ts) may keep: what a domain declares, checked once per
 * document. Caching is opt-in per root query field, because only the domain knows whether its answer
 * depends on nothing but the person's rows and the arguments; anything that reaches an answer which
 * expires by itself (a signed, short-lived URL) opts out by type or field.
 */

const EXTENSION = 'answerCache';

/**
 * On a root query field: its answer depends only on the signed-in person's rows and the operation's
 * arguments (no clock, no "today", no plan gate, no setting of the service, no other person's rows,
 * no write). Such answers are kept per person and served while the person's data version is unchanged.
 */
export function CachedPerPerson(): MethodDecorator {
  return Extensions({ [EXTENSION]: 'person' });
}

/**
 * On a type or field whose value expires by itself (a signed URL) or reads the clock: an operation that
 * selects it anywhere is never cached.
 */
export function NeverCached(): ClassDecorator & MethodDecorator & PropertyDecorator {
  return Extensions({ [EXTENSION]: 'never' });
}

function policyOf(extensions: Readonly<Record<string, unknown>> | null | undefined): unknown {
  return extensions?.[EXTENSION];
}

const verdicts = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, boolean>>>();

/**
 * Whether the operation is a query whose every root field is `CachedPerPerson` and whose selection,
 * fragments included, reaches no `NeverCached` type or field (nor introspection). Remembered per
 * schema, document and operation name.
 */
export function isCacheableOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): boolean {
  let byDocument = verdicts.get(schema);
  if (!byDocument) verdicts.set(schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  if (!byName) byDocument.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let verdict = byName.get(key);
  if (verdict === undefined) {
    verdict = decide(schema, document, operationName);
    byName.set(key, verdict);
  }
  return verdict;
}

function decide(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  const query = schema.getQueryType();
  if (!operation || operation.operation !== OperationTypeNode.QUERY || !query) return false;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const walk = new SelectionWalk(schema, fragments);
  return walk.allowed(query, operation.selectionSet, true) && walk.rootFields > 0;
}

class SelectionWalk {
  rootFields = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  ) {}

  private typeAllowed(type: GraphQLNamedType | undefined | null): type is GraphQLCompositeType {
    return !!type && isCompositeType(type) && policyOf(type.extensions) !== 'never';
  }

  allowed(type: GraphQLCompositeType, selectionSet: SelectionSetNode, root: boolean): boolean {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__typename') continue;
        if (name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) return false;
        const field = type.getFields()[name];
        if (!field) return false;
        const policy = policyOf(field.extensions);
        if (policy === 'never' || (root && policy !== 'person')) return false;
        if (root) this.rootFields++;
        const named = getNamedType(field.type);
        if (policyOf(named.extensions) === 'never') return false;
        if (selection.selectionSet && !(this.typeAllowed(named) && this.allowed(named, selection.selectionSet, false))) return false;
      } else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : this.fragments.get(selection.name.value);
        if (!fragment) return false;
        const on = fragment.typeCondition ? this.schema.getType(fragment.typeCondition.name.value) : type;
        if (!this.typeAllowed(on) || !this.allowed(on, fragment.selectionSet, root)) return false;
      }
    }
    return true;
  }
}
