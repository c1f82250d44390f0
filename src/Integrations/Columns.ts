import { type Schema, SchemaAST as AST } from "effect"

/**
 * The columns of an export: the leaf fields of a row's JSON shape, flattened to dotted names
 * (`brand.name`, `visibility_ci.low`), in the order the row's schema declares them.
 *
 * Columns come from the schema rather than from the rows: a nullable object (`visibility_ci: null`)
 * or an empty page must not change the header, so every file of one endpoint has the same columns
 * in the same order, whatever its rows hold.
 */
export interface Column {
  /** The header cell: the field names of the path joined with `.`. */
  readonly name: string
  /** The field names from the row down to the value. */
  readonly path: ReadonlyArray<string>
}

/** A union's members other than `null` and `undefined`. */
const presentMembers = (union: AST.Union): ReadonlyArray<AST.AST> =>
  union.types.filter((member) => !(AST.isLiteral(member) && member.literal === null) && !AST.isUndefinedKeyword(member))

/** The object types a field's value can be (unwrapping nullable unions and refinements); none for a leaf. */
const objectTypes = (ast: AST.AST): ReadonlyArray<AST.TypeLiteral> => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.length > 0 ? [ast] : []
    case "Refinement":
      return objectTypes(ast.from)
    case "Union": {
      const members = presentMembers(ast).map(objectTypes)
      // A union of objects and scalars (an object or a string) is one cell, written as JSON.
      return members.length > 0 && members.every((objects) => objects.length > 0) ? members.flat() : []
    }
    default:
      return []
  }
}

const collect = (objects: ReadonlyArray<AST.TypeLiteral>, prefix: ReadonlyArray<string>, into: Map<string, Column>): void => {
  for (const object of objects) {
    for (const property of object.propertySignatures) {
      if (typeof property.name !== "string") continue
      const path = [...prefix, property.name]
      const nested = objectTypes(property.type)
      if (nested.length > 0) collect(nested, path, into)
      else {
        const name = path.join(".")
        if (!into.has(name)) into.set(name, { name, path })
      }
    }
  }
}

/**
 * The columns of rows of `schema`, read from its encoded (JSON) side: nested objects, nullable or
 * not, become their fields; arrays, scalars and anything recursive are one column. A union of
 * object types gives the fields of each, first seen first.
 */
export const columnsOf = <A, I, R>(schema: Schema.Schema<A, I, R>): ReadonlyArray<Column> => {
  const objects = objectTypes(AST.encodedAST(schema.ast))
  if (objects.length === 0) throw new Error("columnsOf: the row schema is not an object")
  const columns = new Map<string, Column>()
  collect(objects, [], columns)
  return [...columns.values()]
}

/** The value at a column's path in a row; undefined when a step on the way is null or missing. */
export const valueAt = (row: unknown, path: ReadonlyArray<string>): unknown => {
  let value = row
  for (const key of path) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}
