import {
  getNamedType,
  isLeafType,
  isObjectType,
  Kind,
  OperationTypeNode,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { buildOperationNodeForField, type SelectedFields } from '@graphql-tools/utils';
import type { AnswerFields, AnswerShape, RouteTable } from './route-table.js';

/** Whether a route answers this leaf field of `type`: every one, unless its `fields` name the type's. */
function answers(fields: AnswerFields, type: GraphQLObjectType, name: string): boolean {
  const listed = fields[type.name];
  return !listed || listed.includes(name);
}

/**
 * A route's field lists name object types of the schema and leaf fields of theirs, none left empty: a
 * misspelt name stops the start instead of quietly answering less (or more).
 */
function checkAnswerFields(schema: GraphQLSchema, fields: AnswerFields, at: string): void {
  for (const [typeName, names] of Object.entries(fields)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`Answer fields of ${at} name ${typeName}, which is no object type of the schema`);
    if (!names.length) throw new Error(`Answer fields of ${at} leave ${typeName} without a field`);
    for (const name of names) {
      const field = type.getFields()[name];
      if (!field || !isLeafType(getNamedType(field.type))) throw new Error(`Answer fields of ${at} name ${typeName}.${name}, which is no leaf field of ${typeName}`);
    }
  }
}

/**
 * Sofa's selection for a route: the leaf fields (scalars, enums, lists of them) the route answers of each
 * type, plus the relations the shape names, each again with its leaf fields and only the relations named
 * under it.
 */
function selectedFields(type: GraphQLObjectType, shape: AnswerShape, fields: AnswerFields, at: string): Record<string, SelectedFields> {
  const typeFields = type.getFields();
  const selected: Record<string, SelectedFields> = {};
  for (const [name, field] of Object.entries(typeFields)) {
    if (isLeafType(getNamedType(field.type)) && answers(fields, type, name)) selected[name] = true;
  }
  for (const [name, nested] of Object.entries(shape)) {
    const named = typeFields[name] ? getNamedType(typeFields[name].type) : undefined;
    if (!named || !isObjectType(named)) throw new Error(`Answer shape of ${at} names ${type.name}.${name}, which is not a relation of ${type.name}`);
    selected[name] = selectedFields(named, nested === true ? {} : nested, fields, at);
  }
  return selected;
}

/**
 * The selection a route with an `answer` shape runs: the object type its operation returns and the fields
 * selected on it. Shared by the documents below and the route's OpenAPI description (rest/session-openapi.ts),
 * so both follow the one shape.
 */
export function answerSelection(
  schema: GraphQLSchema,
  operation: string,
  shape: AnswerShape,
  fields: AnswerFields = {},
): { kind: OperationTypeNode; field: string; selection: Record<string, SelectedFields> } {
  const [typeName, fieldName] = operation.split('.') as [string, string];
  const kind = typeName === 'Mutation' ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY;
  const root = kind === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  const returned = root?.getFields()[fieldName] ? getNamedType(root.getFields()[fieldName]!.type) : undefined;
  if (!returned || !isObjectType(returned)) throw new Error(`Answer shape of ${operation}: the operation does not return an object type`);
  checkAnswerFields(schema, fields, operation);
  return { kind, field: fieldName, selection: selectedFields(returned, shape, fields, operation) };
}

/** The name Sofa (graphql-tools' builder) gives a route's operation: `<field>_<query|mutation>`. */
function sofaOperationName(operation: string): string {
  const [typeName, fieldName] = operation.split('.') as [string, string];
  return `${fieldName}_${typeName === 'Mutation' ? OperationTypeNode.MUTATION : OperationTypeNode.QUERY}`;
}

/** `document` without the leaf fields `fields` leave out of their types (relations and the rest untouched). */
export function narrowDocument(schema: GraphQLSchema, document: DocumentNode, fields: AnswerFields): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (!parent || !isObjectType(parent) || !field || !isLeafType(getNamedType(field.type))) return undefined;
        return answers(fields, parent, node.name.value) ? undefined : null;
      },
    }),
  );
}

/**
 * The operation documents of the routes that declare an `answer` shape, by the operation name Sofa gives
 * the same route (`<field>_<query|mutation>`): built with the builder Sofa itself uses, so variables and
 * name are Sofa's and only the selection differs. Routes without a shape keep Sofa's own document (every
 * field reachable within the depth limit: `GET /days/:dayId` gets each relation `Day` has, today's and
 * those added later), narrowed by their `fields` (routeDocuments below). Names that are not relations of
 * their type, or not leaf fields of theirs, stop the start.
 */
export function shapedDocuments(schema: GraphQLSchema, table: RouteTable, circularReferenceDepth: number): Map<string, DocumentNode> {
  const documents = new Map<string, DocumentNode>();
  for (const [operation, route] of Object.entries(table)) {
    if (!route.answer) continue;
    const { kind, field, selection } = answerSelection(schema, operation, route.answer, route.fields);
    const node = buildOperationNodeForField({ schema, kind, field, circularReferenceDepth, selectedFields: selection });
    documents.set(node.name!.value, { kind: Kind.DOCUMENT, definitions: [node] });
  }
  return documents;
}

/**
 * The document each route runs, given the one Sofa built for it (by Sofa's operation name): the shaped
 * one where the route declares an `answer`, else Sofa's narrowed by the route's `fields`, else Sofa's.
 * Sofa keeps one document per route, so each is narrowed once.
 */
export function routeDocuments(schema: GraphQLSchema, table: RouteTable, circularReferenceDepth: number): (operationName: string | null | undefined, sofaDocument: DocumentNode) => DocumentNode {
  const shaped = shapedDocuments(schema, table, circularReferenceDepth);
  const fieldsByName = new Map<string, AnswerFields>();
  for (const [operation, route] of Object.entries(table)) {
    if (route.answer || !route.fields) continue;
    checkAnswerFields(schema, route.fields, operation);
    fieldsByName.set(sofaOperationName(operation), route.fields);
  }
  const narrowed = new WeakMap<DocumentNode, DocumentNode>();
  return (operationName, sofaDocument) => {
    if (!operationName) return sofaDocument;
    const document = shaped.get(operationName);
    if (document) return document;
    const fields = fieldsByName.get(operationName);
    if (!fields) return sofaDocument;
    let done = narrowed.get(sofaDocument);
    if (!done) narrowed.set(sofaDocument, (done = narrowDocument(schema, sofaDocument, fields)));
    return done;
  };
}
