import { Either, Option, type ParseResult, Predicate, Schema, SchemaAST as AST } from "effect"

/**
 * Schemas compiled to plain functions, for the values the service handles on every request: the rows
 * it reads and the answers it writes. Schema's own parser is general (effects, every error gathered,
 * excess properties, annotations) and pays for it on every value: a page of 25 prompts spent more CPU
 * in encoding and decoding than in anything else of the request (docs/performance.md, "Where the time
 * goes").
 *
 * A compiled function does what Schema's parser does on the schemas it knows (structs of named
 * fields, arrays and tuples, unions (tried in Schema's order), literals, primitive keywords,
 * refinements, transformations whose functions answer at once, declarations without type
 * parameters), in the same order and with the same result, and nothing else: on a schema with any
 * other part (or parse options and fallbacks of its own) it is not made, and on a value it cannot
 * vouch for it gives up. In both cases Schema's parser does the work (`decoder`, `encoder` below), so
 * errors are Schema's, word for word. test/unit/compiled-schema.test.ts holds every schema of the API's
 * answers to Schema's own results.
 *
 * A compiled function gives up in one of two ways: REJECTED when Schema is certain to reject the value
 * (a type, literal or refinement that does not hold, a transformation or declaration that fails), so a
 * union may try its next member as Schema does; UNDECIDED when only Schema can tell (a transformation
 * answering with an effect, a recursive part that does not compile), which a union passes on.
 */

const REJECTED: unique symbol = Symbol("Compiled/Rejected")
const UNDECIDED: unique symbol = Symbol("Compiled/Undecided")
type GiveUp = typeof REJECTED | typeof UNDECIDED
const gaveUp = (value: unknown): value is GiveUp => value === REJECTED || value === UNDECIDED
type Compiled = (input: unknown) => unknown

type Direction = "decode" | "encode"

const caches: Record<Direction, WeakMap<AST.AST, Compiled | null>> = { decode: new WeakMap(), encode: new WeakMap() }

/** The compiled function of `ast` in `direction`, or null when the schema has a part this module does not know. */
const compile = (ast: AST.AST, direction: Direction): Compiled | null => {
  const cache = caches[direction]
  const known = cache.get(ast)
  if (known !== undefined) return known
  const made = make(ast, direction)
  cache.set(ast, made)
  return made
}

const isRecord = (input: unknown): input is Record<string, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

const check = (guard: (input: unknown) => boolean): Compiled => (input) => guard(input) ? input : REJECTED

/** A transformation's or declaration's answer: its value when given at once, REJECTED for a failure given at once. */
const settled = (result: unknown): unknown =>
  Either.isEither(result) ? (Either.isRight(result) ? result.right : REJECTED) : UNDECIDED

/**
 * The literal fields Schema indexes a union member by (`getLiterals` in effect's ParseResult): its
 * required fields (or tuple elements) whose type, on the side being read, is a literal.
 */
const literalsOf = (ast: AST.AST, direction: Direction): ReadonlyArray<readonly [PropertyKey, AST.Literal]> => {
  switch (ast._tag) {
    case "Declaration": {
      const surrogate = AST.getSurrogateAnnotation(ast)
      return Option.isSome(surrogate) ? literalsOf(surrogate.value, direction) : []
    }
    case "TypeLiteral":
      return ast.propertySignatures.flatMap((field) => {
        const type = sideOf(field.type, direction)
        return AST.isLiteral(type) && !field.isOptional ? [[field.name, type] as const] : []
      })
    case "TupleType":
      return ast.elements.flatMap((element, index) => {
        const type = sideOf(element.type, direction)
        return AST.isLiteral(type) && !element.isOptional ? [[index, type] as const] : []
      })
    case "Refinement":
      return literalsOf(ast.from, direction)
    case "Suspend":
      return literalsOf(ast.f(), direction)
    case "Transformation":
      return literalsOf(direction === "decode" ? ast.from : ast.to, direction)
    default:
      return []
  }
}

const sideOf = (ast: AST.AST, direction: Direction) => direction === "decode" ? AST.encodedAST(ast) : AST.typeAST(ast)

/**
 * A union's members in the order Schema tries them on an input (`getSearchTree` and the union's parser
 * in effect's ParseResult): for each literal field in turn, the members whose literal the input holds
 * there (compared as text, as Schema does), then the members with no literal field, in declared order;
 * a member with several literal fields is filed under the first whose literal no member before it had
 * (under its last when every one was had).
 * Null when a literal field or its text is `__proto__`, which Schema's plain objects mishandle.
 */
const candidatesOf = <M>(
  members: ReadonlyArray<readonly [AST.AST, M]>,
  direction: Direction
): ((input: unknown) => ReadonlyArray<M>) | null => {
  const keys: Record<PropertyKey, Record<string, Array<M>>> = {}
  const otherwise: Array<M> = []
  for (const [ast, member] of members) {
    const tags = literalsOf(ast, direction)
    if (tags.length === 0) otherwise.push(member)
    for (let j = 0; j < tags.length; j++) {
      const [key, literal] = tags[j]!
      const text = String(literal.literal)
      if (key === "__proto__" || text === "__proto__") return null
      const buckets = (keys[key] ??= {})
      if (!Object.hasOwn(buckets, text)) {
        buckets[text] = [member]
        break
      }
      if (j === tags.length - 1) buckets[text]!.push(member)
    }
  }
  const names = Reflect.ownKeys(keys)
  if (names.length === 0) return () => otherwise
  return (input) => {
    // Schema reads the literal fields of records and arrays only (its `isRecordOrArray`).
    if (typeof input !== "object" || input === null) return otherwise
    const found: Array<M> = []
    for (const name of names) {
      if (!Object.hasOwn(input, name)) continue
      const text = String((input as Record<PropertyKey, unknown>)[name])
      const buckets = keys[name]!
      if (Object.hasOwn(buckets, text)) found.push(...buckets[text]!)
    }
    return found.length === 0 ? otherwise : otherwise.length === 0 ? found : found.concat(otherwise)
  }
}

const PARSE_OPTIONS: AST.ParseOptions = {}

/** `DateFromString` decoding: any string, to the Date it makes (an invalid one included, as Schema's does). */
const decodeDateString: Compiled = (input) => typeof input === "string" ? new Date(input) : REJECTED

/**
 * The ISO texts of recent instants. `toISOString` costs about half a microsecond, and the same instants
 * come back again and again: a day series of 10 brands writes each of its 90 days 10 times, and every
 * answer on the same days writes them again. Emptied when full, so it never holds more than this.
 */
const isoTexts = new Map<number, string>()
const ISO_TEXTS_MAX = 4096

/** `DateFromString` encoding: `toISOString`, and "Invalid Date" for an invalid Date (effect's `formatDate`). */
const encodeDateString: Compiled = (input) => {
  if (!Predicate.isDate(input)) return REJECTED
  const time = input.getTime()
  if (Number.isNaN(time)) return "Invalid Date"
  let text = isoTexts.get(time)
  if (text === undefined) {
    if (isoTexts.size >= ISO_TEXTS_MAX) isoTexts.clear()
    text = input.toISOString()
    isoTexts.set(time, text)
  }
  return text
}

/**
 * A struct of required fields only, as a function made for its fields (as ajv and fast-json-stringify
 * do): it reads each field, gives up as soon as one does, and answers an object literal, which V8
 * builds with one shape at once, where setting the fields one by one under computed names costs a
 * lookup each. Names are written as JSON strings, so any name is safe in the source.
 */
const structOf = (fields: ReadonlyArray<{ readonly name: string; readonly parse: Compiled }>): Compiled => {
  const reads = fields.map(({ name }, i) => `const v${i} = parse[${i}](input[${JSON.stringify(name)}]); if (v${i} === REJECTED || v${i} === UNDECIDED) return v${i};`)
  const literal = fields.map(({ name }, i) => `${JSON.stringify(name)}: v${i}`).join(", ")
  const source = `return (input) => { if (!isRecord(input)) return REJECTED; ${reads.join(" ")} return { ${literal} } }`
  return new Function("parse", "REJECTED", "UNDECIDED", "isRecord", source)(fields.map((field) => field.parse), REJECTED, UNDECIDED, isRecord)
}

const make = (ast: AST.AST, direction: Direction): Compiled | null => {
  // Options and fallbacks of the schema's own change what Schema does with it: left to Schema.
  if (Option.isSome(AST.getParseOptionsAnnotation(ast)) || Option.isSome(AST.getDecodingFallbackAnnotation(ast))) return null
  // Dates, in most rows and answers (a day series has hundreds): Schema's own date declaration and
  // transformation, recognised as themselves and done without the general calls (an Either each).
  if (ast === Schema.DateFromSelf.ast) return check(Predicate.isDate)
  if (ast === Schema.DateFromString.ast) return direction === "decode" ? decodeDateString : encodeDateString
  switch (ast._tag) {
    case "StringKeyword":
      return check((u) => typeof u === "string")
    case "NumberKeyword":
      return check((u) => typeof u === "number")
    case "BooleanKeyword":
      return check((u) => typeof u === "boolean")
    case "UndefinedKeyword":
      return check((u) => u === undefined)
    case "UnknownKeyword":
    case "AnyKeyword":
      return (input) => input
    case "Literal": {
      const literal = ast.literal
      return check((u) => u === literal)
    }
    case "Enums": {
      const values = ast.enums.map(([, value]) => value)
      return check((u) => values.includes(u as string | number))
    }
    case "Declaration": {
      if (ast.typeParameters.length > 0) return null
      const parse = direction === "decode" ? ast.decodeUnknown() : ast.encodeUnknown()
      return (input) => settled(parse(input, PARSE_OPTIONS, ast))
    }
    case "Refinement": {
      if (direction === "decode") {
        const from = compile(ast.from, "decode")
        if (from === null) return null
        return (input) => {
          const value = from(input)
          if (gaveUp(value)) return value
          return Option.isNone(ast.filter(value, PARSE_OPTIONS, ast)) ? value : REJECTED
        }
      }
      // Encoding checks the value against the whole type side first, then encodes what lies under the refinements.
      const typeSide = compile(AST.typeAST(ast), "decode")
      let under: AST.AST = ast.from
      while (under._tag === "Refinement") under = under.from
      const to = compile(under, "encode")
      if (typeSide === null || to === null) return null
      return (input) => {
        const value = typeSide(input)
        return gaveUp(value) ? value : to(value)
      }
    }
    case "Transformation": {
      const transformation = ast.transformation
      if (transformation._tag === "TypeLiteralTransformation") return null
      const first = compile(direction === "decode" ? ast.from : ast.to, direction)
      const last = compile(direction === "decode" ? ast.to : ast.from, direction)
      if (first === null || last === null) return null
      if (transformation._tag === "ComposeTransformation") {
        return (input) => {
          const value = first(input)
          return gaveUp(value) ? value : last(value)
        }
      }
      const transform = direction === "decode" ? transformation.decode : transformation.encode
      return (input) => {
        const value = first(input)
        if (gaveUp(value)) return value
        const transformed = settled(transform(value, PARSE_OPTIONS, ast, input))
        return gaveUp(transformed) ? transformed : last(transformed)
      }
    }
    case "TupleType": {
      if (ast.elements.some((element) => element.isOptional) || ast.rest.length > 1) return null
      const elements = ast.elements.map((element) => compile(element.type, direction))
      const rest = ast.rest.length === 1 ? compile(ast.rest[0]!.type, direction) : undefined
      if (elements.some((element) => element === null) || rest === null) return null
      const fixed = elements as Array<Compiled>
      return (input) => {
        if (!Array.isArray(input) || input.length < fixed.length) return REJECTED
        if (rest === undefined && input.length > fixed.length) return REJECTED
        const output = new Array(input.length)
        for (let i = 0; i < input.length; i++) {
          const value = (i < fixed.length ? fixed[i]! : rest!)(input[i])
          if (gaveUp(value)) return value
          output[i] = value
        }
        return output
      }
    }
    case "TypeLiteral": {
      // An empty struct is any value but null and undefined, as it is: left to Schema.
      if (ast.indexSignatures.length > 0 || ast.propertySignatures.length === 0) return null
      const fields: Array<{ readonly name: string; readonly optional: boolean; readonly parse: Compiled }> = []
      for (const signature of ast.propertySignatures) {
        if (typeof signature.name !== "string") return null
        const parse = compile(signature.type, direction)
        if (parse === null) return null
        fields.push({ name: signature.name, optional: signature.isOptional, parse })
      }
      // The output has the struct's fields in their declared order, and nothing else (excess properties are dropped, as Schema does by default).
      // Optional fields, or one named `__proto__` (which a literal would take for the prototype), keep the loop below.
      if (fields.every((field) => !field.optional && field.name !== "__proto__")) return structOf(fields)
      return (input) => {
        if (!isRecord(input)) return REJECTED
        const output: Record<string, unknown> = {}
        for (const field of fields) {
          const present = Object.hasOwn(input, field.name)
          if (!present && field.optional) continue
          const value = field.parse(input[field.name])
          if (gaveUp(value)) return value
          output[field.name] = value
        }
        return output
      }
    }
    case "Union": {
      const members: Array<readonly [AST.AST, Compiled]> = []
      for (const member of ast.types) {
        const compiled = compile(member, direction)
        if (compiled === null) return null
        members.push([member, compiled])
      }
      const candidates = candidatesOf(members, direction)
      if (candidates === null) return null
      return (input) => {
        for (const member of candidates(input)) {
          const value = member(input)
          // A member that cannot tell: Schema might take it, so Schema decides.
          if (value !== REJECTED) return value
        }
        return REJECTED
      }
    }
    case "Suspend": {
      let inner: Compiled | null | undefined
      return (input) => {
        if (inner === undefined) inner = compile(ast.f(), direction)
        return inner === null ? UNDECIDED : inner(input)
      }
    }
    default:
      return null
  }
}

/**
 * Decodes unknown input with `schema`: the compiled function when it vouches for the value, Schema's
 * parser otherwise (and for its error). Made once per schema.
 */
export const decoder = <A, I>(schema: Schema.Schema<A, I, never>): (input: unknown) => Either.Either<A, ParseResult.ParseError> =>
  fastOr(compile(schema.ast, "decode"), Schema.decodeUnknownEither(schema)) as (input: unknown) => Either.Either<A, ParseResult.ParseError>

/** Encodes a value of `schema`, as `decoder` does. */
export const encoder = <A, I>(schema: Schema.Schema<A, I, never>): (value: A) => Either.Either<I, ParseResult.ParseError> =>
  fastOr(compile(schema.ast, "encode"), Schema.encodeUnknownEither(schema)) as (value: A) => Either.Either<I, ParseResult.ParseError>

const fastOr = (
  compiled: Compiled | null,
  general: (input: unknown) => Either.Either<unknown, ParseResult.ParseError>
): (input: unknown) => Either.Either<unknown, ParseResult.ParseError> => {
  if (compiled === null) return general
  return (input) => {
    const value = compiled(input)
    return gaveUp(value) ? general(input) : Either.right(value)
  }
}

/** Whether `schema` compiles in `direction` (for the tests: a schema that silently stops compiling would only be slower). */
export const isCompiled = (schema: Schema.Schema.Any, direction: Direction): boolean => compile(schema.ast, direction) !== null
