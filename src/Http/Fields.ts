import { JSONSchema, Option, ParseResult, Schema } from "effect"
import { isCountryCode } from "../Domain/Country.ts"
import { isValidText } from "../Domain/Text.ts"
import { Platform, platforms } from "../Domain/Platform.ts"
import { parseDate, parseId } from "../Domain/Common.ts"

/**
 * Field schemas of request bodies and queries, with the messages a 422 shows (Laravel's wording).
 * A field's messages name it: `monitor_id` reads "The monitor id field ...".
 */

const label = (field: string) => field.replaceAll("_", " ")

export { isValidText }

/** Any string of a body or query, refused (422) when it holds a NUL or a lone surrogate. */
export const string = (field: string) =>
  Schema.String.annotations({ message: () => `The ${label(field)} field must be a string.` }).pipe(
    Schema.filter(isValidText, { message: () => `The ${label(field)} field must be valid Unicode text without NUL characters.` })
  )

/** The message of a list over its limit: no list is unbounded (docs/api.md, "Limits"). */
const tooMany = (field: string, max: number) => ({ message: () => `The ${label(field)} field must not have more than ${max} items.` })

/**
 * An array of at most `max` items of `item`, its length checked before its items: a list of a
 * million bad items is one error, found at once, not a million.
 */
export const boundedArray = <A, I, R>(field: string, item: Schema.Schema<A, I, R>, max: number) =>
  Schema.Array(Schema.Unknown).annotations({ message: () => `The ${label(field)} field must be an array.` }).pipe(
    Schema.maxItems(max, tooMany(field, max)),
    Schema.compose(Schema.Array(item), { strict: false })
  ).annotations({ jsonSchema: { type: "array", items: itemJsonSchema(item), maxItems: max } })

/** The JSON Schema of a list's item, for the OpenAPI document (the list itself is checked in two steps). */
const itemJsonSchema = (item: Schema.Schema.Any): object => {
  const { $schema: _, ...schema } = JSONSchema.make(item) as unknown as Record<string, unknown>
  return schema
}

/** A string, trimmed, then 1..max characters. */
export const text = (field: string, max: number) =>
  string(field).pipe(
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
    // Number.isInteger, not Schema.int (safe integers only): 2^63 - 1 is an integer, of no row.
    Schema.filter(Number.isInteger, { message: () => `The ${label(field)} field must be an integer.` }),
    Schema.positive({ message: () => `The ${label(field)} field must be at least 1.` }),
    // No row has an id past 2^53 - 1; a larger one is an id that matches nothing, as ever.
    Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER, { message: () => `The selected ${label(field)} is invalid.` })
  )

export const idList = (field: string, maxItems: number) => boundedArray(field, id(`${field} item`), maxItems)

export const boolean = (field: string) =>
  Schema.Boolean.annotations({ message: () => `The ${label(field)} field must be true or false.` })

/**
 * One of `values`, refused with one message listing them all. Checked as a string first: a union of
 * literals would report one "Expected ..." per value instead.
 */
export const oneOf = <const Values extends ReadonlyArray<string>>(field: string, values: Values) => {
  const message = () => `The selected ${label(field)} is invalid. Allowed: ${values.join(", ")}.`
  return Schema.String.annotations({ message }).pipe(
    Schema.filter((value) => (values as ReadonlyArray<string>).includes(value), { message }),
    Schema.compose(Schema.Literal(...values), { strict: false })
  ).annotations({ jsonSchema: { type: "string", enum: values } })
}

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

/** The values of a list without repeats, the first of each kept; `key` says which values are the same. */
const distinct = <A>(list: ReadonlyArray<A>, key: (value: A) => unknown): Array<A> => {
  const seen = new Set<unknown>()
  return list.filter((value) => {
    const k = key(value)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/**
 * A list of strings, each trimmed and 1..max characters; repeats compared case-insensitively count once,
 * the first kept. A bad item reports under `<field>.<index>`.
 */
export const textList = (field: string, max: number, maxItems: number) =>
  boundedArray(field, text(`${field} item`, max), maxItems).pipe(
    Schema.transform(Schema.Array(Schema.String), {
      strict: true,
      decode: (list) => distinct(list, (value) => value.toLowerCase()),
      encode: (list) => list
    })
  ).annotations({
    jsonSchema: {
      type: "array",
      items: { type: "string", minLength: 1, maxLength: max },
      maxItems,
      description: `At most ${maxItems} strings of 1 to ${max} characters, trimmed; repeats (whatever their case) count once, the first kept.`
    }
  })

/** A hostname as a brand's domain: stored lower-case and without a leading `www.`, as sources are. */
export const domain = (field: string) =>
  hostname(field).pipe(
    Schema.compose(Schema.transform(Schema.String, Schema.String, {
      strict: true,
      decode: (host) => host.replace(/^www\./, ""),
      encode: (host) => host
    }))
  ).annotations({
    jsonSchema: {
      type: "string",
      format: "hostname",
      description: "A hostname, such as `example.com`; stored lower-case without a leading `www.`.",
      examples: ["example.com"]
    }
  })

/** A list of domains (see `domain`); repeats after normalization count once, the first kept. */
export const domainList = (field: string, maxItems: number) =>
  boundedArray(field, domain(`${field} item`), maxItems).pipe(
    Schema.transform(Schema.Array(Schema.String), { strict: true, decode: (list) => distinct(list, (host) => host), encode: (list) => list })
  ).annotations({
    jsonSchema: {
      type: "array",
      items: { type: "string", format: "hostname" },
      maxItems,
      description: `At most ${maxItems} hostnames, such as \`example.com\`; stored lower-case without a leading \`www.\`, repeats counted once.`
    }
  })

/** A non-empty set of platform names; repeated names count once. */
export const platformSet = (field: string) =>
  boundedArray(
    field,
    oneOf(`${field} item`, platforms),
    // Repeats count once, but a list of a million repeats is still refused.
    100
  ).pipe(
    Schema.minItems(1, { message: () => `The ${label(field)} field must have at least 1 item.` }),
    Schema.transform(Schema.Array(Platform), { strict: true, decode: (list) => [...new Set(list)], encode: (list) => list })
  ).annotations({
    jsonSchema: {
      type: "array",
      items: { type: "string", enum: platforms },
      minItems: 1,
      maxItems: 100,
      description: "Platform names; repeats count once."
    }
  })

/**
 * A path id. Anything that is not a positive integer decodes to 0, which matches no row, so it takes
 * the same road to `<Resource> not found` as an absent id, and after body validation, as the order of
 * checks wants (docs/api.md).
 */
export const PathId = Schema.transform(Schema.String, Schema.Number, {
  strict: true,
  decode: (value) => Option.getOrElse(parseId(value), () => 0),
  encode: (id) => String(id)
}).annotations({ jsonSchema: { type: "integer", minimum: 1 } })

/**
 * A path of one id parameter per name (`/brands/:brand/segments/:segment`), typed by the names:
 * `{ brand: number, segment: number }`. The platform cannot check a path schema of generic names
 * itself; each parameter is a `PathId`.
 */
export const pathIds = <const Params extends ReadonlyArray<string>>(...params: Params) =>
  Schema.Struct(Object.fromEntries(params.map((param) => [param, PathId]))) as unknown as Schema.Schema<
    { readonly [K in Params[number]]: number },
    Readonly<Record<string, string>>
  >

/** An integer query filter (`?monitor_id=3`). */
export const idQuery = (field: string) =>
  Schema.transformOrFail(Schema.String, Schema.Number, {
    strict: true,
    decode: (value, _, ast) =>
      Option.match(parseId(value.trim()), {
        onNone: () =>
          ParseResult.fail(
            new ParseResult.Type(
              ast,
              value,
              // Digits too large for any id: a valid integer that names nothing.
              /^[1-9][0-9]*$/.test(value.trim())
                ? `The selected ${label(field)} is invalid.`
                : `The ${label(field)} field must be an integer.`
            )
          ),
        onSome: ParseResult.succeed
      }),
    encode: (id) => ParseResult.succeed(String(id))
  }).annotations({ jsonSchema: { type: "integer", minimum: 1 } })

/** An optional field of a body: absent or a value (JSON has no `undefined`). */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** A request body or query: a 422 lists the errors of every field, not only the first. */
export const input = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct(fields).annotations({ parseOptions: { errors: "all" } })

/** Text kept exactly as given (an AI platform's answer): 1..max characters, not trimmed. */
export const rawText = (field: string, max: number) =>
  string(field).pipe(
    Schema.filter((value) => value.length > 0, { message: () => `The ${label(field)} field is required.` }),
    Schema.filter((value) => [...value].length <= max, {
      message: () => `The ${label(field)} field must not be greater than ${max} characters.`
    })
  ).annotations({ jsonSchema: { type: "string", minLength: 1, maxLength: max } })

/**
 * A real calendar date `YYYY-MM-DD` (2026-02-30 is not one; years 0000-9999), as the Date of its UTC
 * midnight. The same rule as the analytics dates (`parseDate`), so a date valid there is valid here.
 */
export const parseCalendarDate = (value: string): Option.Option<Date> =>
  Option.map(Option.fromNullable(parseDate(value)), (ms) => new Date(ms))

/** A calendar date query parameter, decoded to its UTC midnight. */
export const calendarDate = (field: string) =>
  Schema.transformOrFail(Schema.String, Schema.DateFromSelf, {
    strict: true,
    decode: (value, _, ast) =>
      Option.match(parseCalendarDate(value.trim()), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, value, `The ${label(field)} field must be a valid date in the format YYYY-MM-DD.`)),
        onSome: ParseResult.succeed
      }),
    encode: (date) => ParseResult.succeed(date.toISOString().slice(0, 10))
  }).annotations({ jsonSchema: { type: "string", format: "date", examples: ["2026-11-21"] } })

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/

/**
 * Whether an ISO 8601 date-time with a zone names a moment that exists: a real calendar date (no 30
 * February, which `Date.parse` would read as 1 March), hours 00-23 (no 24:00), minutes and seconds
 * 00-59, an offset of at most ±23:59. `undefined` when it is not of that shape at all.
 */
const isRealDateTime = (value: string): boolean | undefined => {
  const match = DATE_TIME.exec(value)
  if (match === null) return undefined
  const [, date, hours, minutes, seconds = "00", offsetHours = "00", offsetMinutes = "00"] = match
  return parseDate(date!) !== undefined && Number(hours) <= 23 && Number(minutes) <= 59 && Number(seconds) <= 59 &&
    Number(offsetHours) <= 23 && Number(offsetMinutes) <= 59 && !Number.isNaN(Date.parse(value))
}

/** An ISO 8601 date-time with a time zone (`Z` or an offset), of a moment that exists. */
export const dateTime = (field: string) =>
  Schema.String.annotations({ message: () => `The ${label(field)} field must be a string.` }).pipe(
    Schema.filter((value) => isRealDateTime(value) !== undefined, {
      message: () => `The ${label(field)} field must be an ISO 8601 date-time with a time zone.`
    }),
    Schema.filter((value) => isRealDateTime(value) === true, {
      message: () => `The ${label(field)} field must be a valid date.`
    }),
    Schema.compose(Schema.Date)
  ).annotations({ jsonSchema: { type: "string", format: "date-time", examples: ["2026-11-21T09:30:00Z"] } })

/** `dateTime`, at or after `earliest` (an ISO 8601 date-time in UTC, as the message shows it). */
export const dateTimeFrom = (field: string, earliest: string, description: string) =>
  dateTime(field).pipe(
    Schema.filter((date) => date.getTime() >= Date.parse(earliest), {
      message: () => `The ${label(field)} field must be a date after or equal to ${earliest}.`
    })
  ).annotations({ jsonSchema: { type: "string", format: "date-time", description, examples: ["2026-11-21T09:30:00Z"] } })
