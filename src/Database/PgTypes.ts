import pg from "pg"

/**
 * Type parsers for the `pg` driver. Ids are bigint in the database and JSON numbers on the wire
 * (docs/api.md); node-postgres returns int8 as strings to stay exact past 2^53, a range our
 * ids and counts never reach, so they are parsed to numbers once here instead of in every query.
 */
const INT8 = 20
const INT8_ARRAY = 1016
const NUMERIC = 1700

const parseInt8Array = pg.types.getTypeParser(INT8_ARRAY as Parameters<typeof pg.types.getTypeParser>[0])

export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    switch (oid) {
      case INT8:
      case NUMERIC:
        return (value: string) => Number(value)
      case INT8_ARRAY:
        return (value: string) => (parseInt8Array(value) as Array<string | null>).map((v) => (v === null ? null : Number(v)))
      default:
        return pg.types.getTypeParser(oid, format)
    }
  }) as pg.CustomTypesConfig["getTypeParser"]
}
