/**
 * A monitor has a country, and search engines also want a language: the country's most used language by
 * CLDR's likely subtags (`und-DE` → `de`), in Google's spelling (`hl`: `zh-CN`, `zh-TW`, `pt-BR`,
 * `pt-PT`), English where English is the language of the web there though CLDR names another.
 */

/** Countries whose web is mostly English, though CLDR's likely language is another. */
const ENGLISH_WEB = new Set(["IN", "PK", "NG", "KE", "PH", "SG", "ZA", "GH", "UG"])

/** Google's language codes that carry the region. */
const GOOGLE_LANGUAGE: Record<string, string> = { CN: "zh-CN", TW: "zh-TW", HK: "zh-TW", MO: "zh-TW", BR: "pt-BR", PT: "pt-PT" }

/** The language to ask in for a country (ISO 3166-1 alpha-2, any case), as Google's `hl` spells it. */
export const languageOf = (country: string): string => {
  const region = country.toUpperCase()
  if (ENGLISH_WEB.has(region)) return "en"
  const google = GOOGLE_LANGUAGE[region]
  if (google !== undefined) return google
  try {
    return new Intl.Locale("und", { region }).maximize().language
  } catch {
    return "en"
  }
}

/** Google's country code (`gl`): ISO 3166-1 lower-cased, but `uk` for the United Kingdom. */
export const googleCountryOf = (country: string): string => {
  const lower = country.toLowerCase()
  return lower === "gb" ? "uk" : lower
}
