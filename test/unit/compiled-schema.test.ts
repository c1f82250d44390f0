import type { HttpApiEndpoint } from "@effect/platform"
import { Arbitrary, Effect, Either, FastCheck, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Api } from "../../src/Api.ts"
import { Timestamp } from "../../src/Domain/Common.ts"
import * as Compiled from "../../src/Schema/Compiled.ts"

/**
 * The compiled encoders and decoders (src/Schema/Compiled.ts) give what Schema's parser gives: the same
 * value, with its keys in the same order (so the same JSON), and Schema's own error where the value is
 * not one of the schema's.
 */

/** The same outcome: equal values with the same JSON, or both an error with the same message. */
const expectSameOutcome = (compiled: Either.Either<unknown, unknown>, general: Either.Either<unknown, unknown>) => {
  if (Either.isRight(general)) {
    expect(Either.isRight(compiled)).toBe(true)
    const value = (compiled as Either.Right<unknown, unknown>).right
    expect(value).toStrictEqual(general.right)
    expect(JSON.stringify(value)).toBe(JSON.stringify(general.right))
  } else {
    expect(Either.isLeft(compiled)).toBe(true)
    expect(String((compiled as Either.Left<unknown, unknown>).left)).toBe(String(general.left))
  }
}

const endpoints: ReadonlyArray<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps> = Object.values(Api.groups).flatMap((group) =>
  Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>)

const answered = endpoints.filter((endpoint) => endpoint.successSchema.ast._tag !== "Union")

/** Each answered endpoint with its name, for `it.each`. */
const named = answered.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const)

describe("compiled answers of the API", () => {
  it("cover the answers read most: lists and single resources of every project resource", () => {
    const compiled = new Set(
      // Every endpoint, the lists readable by cursor too (their answer is a union of the two envelopes).
      endpoints.filter((endpoint) => Compiled.isCompiled(endpoint.successSchema, "encode")).map((endpoint) => `${endpoint.method} ${endpoint.path}`)
    )
    for (
      const route of [
        "GET /api/v1/prompts",
        "GET /api/v1/prompts/:prompt",
        "GET /api/v1/tags",
        "GET /api/v1/monitors",
        "GET /api/v1/brands",
        "GET /api/v1/responses",
        "GET /api/v1/citations",
        "GET /api/v1/brand-mentions",
        "GET /api/v1/me",
        "POST /api/v1/responses"
      ]
    ) {
      expect(compiled, route).toContain(route)
    }
  })

  it.each(named)("%s: encodes generated answers, and decodes what it encoded, as Schema does", (_, endpoint) => {
    const schema = endpoint.successSchema as Schema.Schema<unknown, unknown, never>
    const [encode, decode] = [Compiled.encoder(schema), Compiled.decoder(schema)]
    const [encodeGeneral, decodeGeneral] = [Schema.encodeUnknownEither(schema), Schema.decodeUnknownEither(schema)]
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(schema), (value) => {
        const encoded = encodeGeneral(value)
        expectSameOutcome(encode(value), encoded)
        if (Either.isRight(encoded)) expectSameOutcome(decode(encoded.right), decodeGeneral(encoded.right))
      }),
      { numRuns: 15 }
    )
  })
})

describe("compiled schemas, case by case", () => {
  const Row = Schema.Struct({
    id: Schema.Int.pipe(Schema.positive()),
    name: Schema.String,
    note: Schema.optional(Schema.String),
    kind: Schema.Literal("a", "b"),
    at: Schema.NullOr(Timestamp),
    tags: Schema.Array(Schema.Struct({ id: Schema.Number, at: Timestamp }))
  })

  it("compiles the shapes of rows and answers both ways", () => {
    expect(Compiled.isCompiled(Row, "encode")).toBe(true)
    expect(Compiled.isCompiled(Row, "decode")).toBe(true)
  })

  const good = { id: 3, name: "x", kind: "b" as const, at: new Date("2026-11-24T10:00:00.123Z"), tags: [{ id: 1, at: new Date(0) }] }
  const encode = Compiled.encoder(Row)
  const decode = Compiled.decoder(Row)

  it("encodes a value: fields in declared order, excess ones dropped, an absent optional one left out", () => {
    const value = { tags: good.tags, extra: true, at: good.at, kind: good.kind, name: good.name, id: good.id }
    const encoded = Either.getOrThrow(encode(value))
    expect(JSON.stringify(encoded)).toBe(
      "{\"id\":3,\"name\":\"x\",\"kind\":\"b\",\"at\":\"2026-11-24T10:00:00.123Z\",\"tags\":[{\"id\":1,\"at\":\"1970-01-01T00:00:00.000Z\"}]}"
    )
    expectSameOutcome(encode(value), Schema.encodeUnknownEither(Row)(value))
  })

  it("decodes what it encoded back to the value", () => {
    const encoded = Either.getOrThrow(encode(good))
    expectSameOutcome(decode(encoded), Schema.decodeUnknownEither(Row)(encoded))
    expect(Either.getOrThrow(decode(encoded))).toStrictEqual(good)
  })

  it.each([
    ["a refinement that does not hold", { ...good, id: 0 }],
    ["a literal outside the union", { ...good, kind: "c" }],
    ["an invalid date", { ...good, at: new Date(Number.NaN) }],
    ["a string where a date goes", { ...good, at: "2026-11-24T10:00:00.000Z" }],
    ["a missing required field", { id: 3, kind: "a", at: null, tags: [] }],
    ["an optional field present as undefined", { ...good, note: undefined }],
    ["an array item of the wrong shape", { ...good, tags: [{ id: "1", at: new Date(0) }] }],
    ["not an object", [good]],
    ["null", null]
  ])("encodes %s as Schema does (its error word for word)", (_, value) => {
    expectSameOutcome(encode(value as never), Schema.encodeUnknownEither(Row)(value))
  })

  it.each([
    ["a date that does not parse", { id: 3, name: "x", kind: "a", at: "not a date", tags: [] }],
    ["a number where a string goes", { id: 3, name: 4, kind: "a", at: null, tags: [] }],
    ["an integer check that fails", { id: 1.5, name: "x", kind: "a", at: null, tags: [] }]
  ])("decodes %s as Schema does (its error word for word)", (_, value) => {
    expectSameOutcome(decode(value), Schema.decodeUnknownEither(Row)(value))
  })

  it("encodes and decodes dates as Schema does: any instant, invalid dates, text that is no date, the same instant again", () => {
    const schemas = [Timestamp, Schema.DateFromString, Schema.DateFromSelf] as const
    FastCheck.assert(
      FastCheck.property(FastCheck.date({ noInvalidDate: false }), FastCheck.string(), (date, text) => {
        for (const schema of schemas) {
          const s = schema as Schema.Schema<unknown, unknown, never>
          // Twice: the second encoding of an instant is the remembered text.
          for (let i = 0; i < 2; i++) expectSameOutcome(Compiled.encoder(s)(new Date(date.getTime())), Schema.encodeUnknownEither(s)(date))
          for (const input of [date.toString(), text, date]) expectSameOutcome(Compiled.decoder(s)(input), Schema.decodeUnknownEither(s)(input))
        }
      }),
      { numRuns: 300 }
    )
  })

  it("reads a struct of required fields only as Schema does: order, excess fields, a missing or wrong one", () => {
    const Point = Schema.Struct({ at: Timestamp, value: Schema.NullOr(Schema.Number), count: Schema.Int, "odd name\"": Schema.String })
    const point = { count: 2, "odd name\"": "x", value: null, at: new Date(0), extra: 1 }
    for (const value of [point, { ...point, count: 1.5 }, { at: point.at, value: 1 }, { ...point, value: "1" }, "point"]) {
      expectSameOutcome(Compiled.encoder(Point)(value as never), Schema.encodeUnknownEither(Point)(value))
    }
    expect(JSON.stringify(Either.getOrThrow(Compiled.encoder(Point)(point)))).toBe(
      "{\"at\":\"1970-01-01T00:00:00.000Z\",\"value\":null,\"count\":2,\"odd name\\\"\":\"x\"}"
    )
  })

  it("writes the right text for every instant, however many were written before", () => {
    const encode = Compiled.encoder(Timestamp)
    // More instants than the texts it remembers, twice over, each checked against toISOString.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 5000; i++) {
        const date = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000 + round)
        expect(Either.getOrThrow(encode(date))).toBe(date.toISOString())
      }
    }
  })

  it("tries a union's members in their declared order", () => {
    const Either_ = Schema.Union(Schema.NumberFromString, Schema.String)
    for (const input of ["12", "x"]) expectSameOutcome(Compiled.decoder(Either_)(input), Schema.decodeUnknownEither(Either_)(input))
  })

  it("leaves to Schema what it does not know: records, classes, empty structs, own options", () => {
    class Thing extends Schema.Class<Thing>("Thing")({ id: Schema.Number }) {}
    const preserving = Schema.Struct({ a: Schema.String }).annotations({ parseOptions: { onExcessProperty: "preserve" } })
    const withFallback = Schema.NumberFromString.annotations({ decodingFallback: () => Either.right(0) })
    const protoTagged = Schema.Union(Schema.Struct({ kind: Schema.Literal("__proto__") }), Schema.Struct({ kind: Schema.Literal("b") }))
    for (
      const schema of [Schema.Record({ key: Schema.String, value: Schema.Number }), Thing, Schema.Struct({}), preserving, withFallback, protoTagged]
    ) {
      expect(Compiled.isCompiled(schema as Schema.Schema.Any, "encode") && Compiled.isCompiled(schema as Schema.Schema.Any, "decode")).toBe(false)
    }
    const excess = { a: "x", b: 1 }
    expectSameOutcome(Compiled.decoder(preserving)(excess), Schema.decodeUnknownEither(preserving)(excess))
    expectSameOutcome(Compiled.decoder(Schema.Union(withFallback, Schema.String))("abc"), Schema.decodeUnknownEither(Schema.Union(withFallback, Schema.String))("abc"))
    expectSameOutcome(Compiled.decoder(protoTagged)({ kind: "b" }), Schema.decodeUnknownEither(protoTagged)({ kind: "b" }))
  })

  describe("unions with literal fields, tried in Schema's order", () => {
    const Point = Schema.Struct({ kind: Schema.Literal("point"), id: Schema.Int, bucket: Schema.String, n: Schema.Int })
    const unions = {
      // Rows of several kinds in one statement (the brand series).
      "tagged by one field": Schema.Union(
        Schema.Struct({ kind: Schema.Literal("responses"), bucket: Schema.String, n: Schema.Int }),
        Schema.Struct({ kind: Schema.Literal("mentions"), bucket: Schema.String, n: Schema.Int }),
        Schema.Struct({ kind: Schema.Literal("top"), id: Schema.Int, name: Schema.String, is_own: Schema.Boolean }),
        Point
      ),
      // A row with or without its optional part (the prompt page): the tagged member comes first.
      "an untagged member declared first": Schema.extend(
        Schema.Struct({ id: Schema.Int }),
        Schema.Union(Schema.Struct({ top_id: Schema.Int, top_name: Schema.String }), Schema.Struct({ top_id: Schema.Null }))
      ),
      "untagged and tagged with the same fields": Schema.Union(
        Schema.Struct({ v: Schema.String }),
        Schema.Struct({ kind: Schema.Literal("a"), v: Schema.String })
      ),
      "two literal fields": Schema.Union(
        Schema.Struct({ a: Schema.Literal("x"), b: Schema.Literal(1) }),
        Schema.Struct({ a: Schema.Literal("x"), b: Schema.Literal(2), d: Schema.String }),
        Schema.Struct({ b: Schema.Literal(1), c: Schema.String }),
        Schema.Struct({ a: Schema.Literal("y"), b: Schema.Literal(1), c: Schema.optional(Schema.String) }),
        // Every literal of it taken before: filed under its last one.
        Schema.Struct({ a: Schema.Literal("x"), b: Schema.Literal(2), c: Schema.Number })
      ),
      "a number and its text as literals": Schema.Union(
        Schema.Struct({ k: Schema.Literal(1), v: Schema.Number }),
        Schema.Struct({ k: Schema.Literal("1"), v: Schema.String }),
        Schema.Struct({ k: Schema.Literal(null), v: Schema.NumberFromString })
      ),
      "tuples": Schema.Union(
        Schema.Tuple(Schema.Literal("p"), Schema.Number),
        Schema.Tuple(Schema.Literal("q"), Schema.String),
        Schema.Array(Schema.String)
      ),
      "a transformed literal field": Schema.Union(
        Schema.Struct({ kind: Schema.transformLiteral(0, "zero"), v: Schema.String }),
        Schema.Struct({ kind: Schema.Literal("one"), v: Schema.NumberFromString })
      ),
      "nested": Schema.Array(Schema.Union(Point, Schema.Struct({ kind: Schema.Literal("gap"), bucket: Schema.String })))
    } as const

    /** Inputs near the schemas' own: their literals and field names, mixed with anything. */
    const part = FastCheck.oneof(
      FastCheck.constantFrom("responses", "mentions", "top", "point", "gap", "a", "x", "y", "p", "q", "1", "null", "zero", "one", "12"),
      FastCheck.integer({ min: -1, max: 3 }),
      FastCheck.constant(null),
      FastCheck.boolean(),
      FastCheck.string({ maxLength: 3 })
    )
    const near = FastCheck.oneof(
      FastCheck.dictionary(FastCheck.constantFrom("kind", "bucket", "n", "id", "name", "is_own", "top_id", "top_name", "v", "a", "b", "c", "d", "k"), part),
      FastCheck.array(part, { maxLength: 3 }),
      part
    )

    it.each(Object.entries(unions))("%s: compiled, and decoding or encoding any input as Schema does", (_, union) => {
      const schema = union as unknown as Schema.Schema<unknown, unknown, never>
      expect(Compiled.isCompiled(schema, "decode") && Compiled.isCompiled(schema, "encode")).toBe(true)
      const pairs = [
        [Compiled.decoder(schema), Schema.decodeUnknownEither(schema)],
        [Compiled.encoder(schema), Schema.encodeUnknownEither(schema)]
      ] as const
      const inputs = FastCheck.oneof(near, Arbitrary.make(schema), Arbitrary.make(Schema.encodedSchema(schema)))
      FastCheck.assert(
        FastCheck.property(inputs, (input) => {
          for (const [compiled, general] of pairs) expectSameOutcome(compiled(input), general(input))
        }),
        { numRuns: 400 }
      )
    })

    it("takes the member Schema takes, not the first that fits", () => {
      const decode = Compiled.decoder(unions["untagged and tagged with the same fields"])
      expect(Either.getOrThrow(decode({ kind: "a", v: "x" }))).toEqual({ kind: "a", v: "x" })
      expect(Either.getOrThrow(decode({ kind: "b", v: "x" }))).toEqual({ v: "x" })
      const row = Compiled.decoder(unions["an untagged member declared first"])
      expect(Either.getOrThrow(row({ id: 1, top_id: null, top_name: "x" }))).toEqual({ id: 1, top_id: null })
    })
  })

  it("lets Schema decide a union whose member cannot tell, rather than trying the next member", () => {
    // A transformation that answers with an effect, and a recursive member that does not compile.
    const effectful = Schema.transformOrFail(Schema.String, Schema.Number, {
      decode: (text) => Effect.succeed(Number(text)),
      encode: (n) => Effect.succeed(String(n))
    })
    const viaEffect = Schema.Union(effectful, Schema.String)
    expectSameOutcome(Compiled.decoder(viaEffect)("12"), Schema.decodeUnknownEither(viaEffect)("12"))
    const opaque = Schema.Struct({ a: Schema.NumberFromString, b: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Number })) })
    const viaSuspend = Schema.Union(Schema.suspend(() => opaque), Schema.Struct({ a: Schema.String }))
    expect(Compiled.isCompiled(viaSuspend, "decode")).toBe(true)
    expectSameOutcome(Compiled.decoder(viaSuspend)({ a: "1" }), Schema.decodeUnknownEither(viaSuspend)({ a: "1" }))
    expect(Either.getOrThrow(Compiled.decoder(viaSuspend)({ a: "1" }))).toEqual({ a: 1 })
  })
})
