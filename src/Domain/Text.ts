/**
 * Text the database can store and clients can read: PostgreSQL refuses NUL in text, and a lone
 * UTF-16 surrogate is no character at all (it would be stored as U+FFFD behind the writer's back).
 */

/** A NUL, or half of a UTF-16 surrogate pair without its other half. */
const INVALID_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Whether a string is storable as is: the API refuses any other (422). */
export const isValidText = (value: string): boolean => !INVALID_TEXT.test(value)

/** A platform's answer made storable: NULs dropped, lone surrogates replaced by U+FFFD. */
export const storableText = (value: string): string =>
  isValidText(value)
    ? value
    : value.replace(/\u0000/g, "").replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
