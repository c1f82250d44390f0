import { Option, ParseResult, Schema } from "effect"
import { isCountryCode } from "../Domain/Country.ts"
import { Platform, platforms } from "../Domain/Platform.ts"
import { parseId } from "./ProjectContext.ts"

/**
 * Field schemas of request bodies and queries, with the messages a 422 shows (Laravel's wording).
 * A field's messages name it: `monitor_id` reads "The monitor id field ...".
 */

const label = (field: string) => field.replaceAll("_", " ")

/** A string, trimmed, then 1..max characters. */
export const text = (field: string, max: number) =>
  Schema.String.annotations({ message: () => `The ${label(field)} field must be a string.` }).pipe(
    Schema.compose(Schema.Trim),
    Schema.filter((value) => value.length > 0, { message: () => `The ${label(field)} field is required.` }),
    // Characters, not UTF-16 units: what varchar(n) counts, and what a person counts.
    Schema.filter((value) => [...value].length <= max, {
      message: () => `The ${label(field)} field must not be greater than ${max} characters.`
    })
  ).annotations({
    description: `1 to ${max} characters, trimmed.`,
    jsonSchema: { type: "string", minLength: 1, maxLength: max, description: `1 to ${max} characters, trimmed.` }
  })

export const id = (field: string) =>
  Schema.Number.annotations({ message: () => `The ${label(field)} field must be an integer.` }).pipe(
    Schema.int({ message: () => `The ${label(field)} field must be an integer.` }),
    Schema.positive({ message: () => `The ${label(field)} field must be at least 1.` })
  )

export const idList = (field: string) =>
  Schema.Array(id(`${field} item`)).annotations({ message: () => `The ${label(field)} field must be an array.` })

export const boolean = (field: string) =>
  Schema.Boolean.annotations({ message: () => `The ${label(field)} field must be true or false.` })

export const oneOf = <const Values extends ReadonlyArray<string>>(field: string, values: Values) =>
  Schema.Literal(...values).annotations({ message: () => `The selected ${label(field)} is invalid.` })

/** `#rrggbb` in any case, stored lower-case. */
export const color = (field: string) =>
  Schema.String.annotations({ message: () => `The ${label(field)} field must be a string.` }).pipe(
    Schema.compose(Schema.Trim),
    Schema.pattern(/^#[0-9a-fA-F]{6}$/, { message: () => `The ${label(field)} field must be a valid hexadecimal color (#rrggbb).` }),
    Schema.compose(Schema.Lowercase)
  ).annotations({
    jsonSchema: { type: "string", pattern: "^#[0-9a-fA-F]{6}$", description: "`#rrggbb`, any case; stored lower-case.", examples: ["#1d4ed8"] }
  })

/** ISO 3166-1 alpha-2 in any case, stored upper-case. */
export const country = (field: string) =>
  Schema.String.annotations({ message: () => `The ${label(field)} field must be a string.` }).pipe(
    Schema.compose(Schema.Trim),
    Schema.filter(isCountryCode, { message: () => `The ${label(field)} field must be an ISO 3166-1 alpha-2 country code.` }),
    Schema.compose(Schema.Uppercase)
  ).annotations({
    jsonSchema: { type: "string", minLength: 2, maxLength: 2, description: "ISO 3166-1 alpha-2 code, any case; stored upper-case.", examples: ["US"] }
  })

const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/

/** A hostname such as `example.com`, stored lower-case. */
export const hostname = (field: string) =>
  Schema.String.annotations({ message: () => `The ${label(field)} field must be a string.` }).pipe(
    Schema.compose(Schema.Trim),
    Schema.compose(Schema.Lowercase),
    Schema.filter((host) => HOSTNAME.test(host), { message: () => `The ${label(field)} field must be a valid hostname.` })
  ).annotations({
    jsonSchema: { type: "string", format: "hostname", description: "A hostname, such as `example.com`; stored lower-case.", examples: ["example.com"] }
  })

/** A non-empty set of platform names; repeated names count once. */
export const platformSet = (field: string) =>
  Schema.Array(
    Platform.annotations({ message: () => `The selected ${label(field)} item is invalid. Allowed: ${platforms.join(", ")}.` })
  ).annotations({ message: () => `The ${label(field)} field must be an array.` }).pipe(
    Schema.minItems(1, { message: () => `The ${label(field)} field must have at least 1 item.` }),
    Schema.transform(Schema.Array(Platform), { strict: true, decode: (list) => [...new Set(list)], encode: (list) => list })
  )

/**
 * A path id. Anything that is not a positive integer decodes to 0, which matches no row, so it takes
 * the same road to `<Resource> not found` as an absent id, and after body validation, as the order of
 * checks wants (decisions.md §1, §2).
 */
export const PathId = Schema.transform(Schema.String, Schema.Number, {
  strict: true,
  decode: (value) => Option.getOrElse(parseId(value), () => 0),
  encode: (id) => String(id)
}).annotations({ jsonSchema: { type: "integer", minimum: 1 } })

/** An integer query filter (`?monitor_id=3`). */
export const idQuery = (field: string) =>
  Schema.transformOrFail(Schema.String, Schema.Number, {
    strict: true,
    decode: (value, _, ast) =>
      Option.match(parseId(value.trim()), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, value, `The ${label(field)} field must be an integer.`)),
        onSome: ParseResult.succeed
      }),
    encode: (id) => ParseResult.succeed(String(id))
  }).annotations({ jsonSchema: { type: "integer", minimum: 1 } })

/** An optional field of a body: absent or a value (JSON has no `undefined`). */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** A request body or query: a 422 lists the errors of every field, not only the first. */
export const input = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotations({ parseOptions: { errors: "all" } })
