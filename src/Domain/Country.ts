// The library without its 80 locales (its node entry registers them all: ~1 MB of names never shown).
import countries from "i18n-iso-countries/index.js"

const alpha2 = new Set(Object.keys(countries.getAlpha2Codes()))

/** An assigned ISO 3166-1 alpha-2 code, in any case. */
export const isCountryCode = (code: string): boolean => code.length === 2 && alpha2.has(code.toUpperCase())
