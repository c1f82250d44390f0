/**
 * The `simulated` platform source: answers written here instead of asked of a provider, so that a
 * project can be tried out (and the collector exercised) without keys or spending. The answer is a
 * function of the question alone, seeded by prompt, platform and day: the same slot always gets the
 * same bytes, another day another answer. It is labelled twice, by a first line `[Simulated answer]`
 * in the text and by `Answer.simulated`, so that it is never taken for a real one. docs/simulated.md.
 */
import { Effect } from "effect"
import { brandDomains } from "../Detection/Mentions.ts"
import { coversDomain, findDomainOccurrences, findNameOccurrences } from "../Detection/Matching.ts"
import { normalizeUrl } from "../Detection/Urls.ts"
import type { Platform } from "../Domain/Platform.ts"
import { type Answer, type PlatformClient, type Question, type QuestionBrand, unreported } from "./Platform.ts"
import {
  brandPaths,
  citedPages,
  closingSentences,
  fallbackTopic,
  introSentences,
  listLeads,
  type Tone,
  toneSentences
} from "./SimulatedText.ts"
import { MAX_RIVALS, RIVAL_CHANCE, rivalSentences, simulatedRivals } from "./SimulatedRivals.ts"

/** The first line of every simulated answer. */
export const simulatedLabel = "[Simulated answer]"

/** A client answering every question with `answerFor`; it never fails. */
export const simulatedClient = (platform: Platform): PlatformClient => ({
  platform,
  // The client's platform seeds the answer, whatever the question says.
  ask: (question) => Effect.sync(() => answerFor({ ...question, platform }))
})

/** The simulated answer to a question. Pure and deterministic. */
export const answerFor = (question: Question): Answer => simulate(question).answer

export interface Simulation {
  readonly answer: Answer
  /** The brands the text names, in the order it first names them: what detection must find. */
  readonly mentioned: ReadonlyArray<QuestionBrand>
  /** The spellings of the untracked rivals it names (`SimulatedRivals.ts`), in the order written. */
  readonly untracked: ReadonlyArray<string>
}

/** The simulated answer with what it was written to contain. */
export const simulate = (question: Question): Simulation => {
  const random = seededRandom(`${question.promptId}|${question.platform}|${question.day}`)
  const style = styles[question.platform]
  const all = question.brands

  const bullets = random.chance(style.bullets)
  const used = new Set<string>()
  const written = chooseBrands(random, all, style.maxBrands).flatMap((brand) => {
    const sentences = brandSentences(random, brand, all, { bold: bullets, followUp: style.followUp, used })
    return sentences.length === 0 ? [] : [{ brand, sentences }]
  })
  const mentioned = written.map(({ brand }) => brand)
  const citations = chooseCitations(random, style, mentioned, all.filter((brand) => !mentioned.includes(brand)))

  const lines = written.map(({ sentences }) => {
    // Perplexity-style answers point at their sources by number.
    const marked = style.links === "markers" && citations.length > 0
      ? sentences.map((s) => s.replace(/\.$/u, ` [${random.int(1, citations.length)}].`))
      : sentences
    return bullets ? `- ${marked.join(" ")}` : marked.join(" ")
  })

  // Rivals the project does not track, from a stream of their own so that the rest of the answer is
  // what it was without them.
  const rivals = chooseRivals(seededRandom(`rivals|${question.promptId}|${question.platform}|${question.day}`), all, bullets)
  for (const { line, at } of rivals) lines.splice(Math.min(at, lines.length), 0, line)

  const paragraphs: Array<string> = []
  const topic = topicOf(question.prompt, all)
  // Replacer functions: a `$` in a prompt or a brand name is not a replacement pattern.
  const intro = clean(random, introSentences.map((s) => s.replace("{topic}", () => topic)), all)
  const lead = bullets ? clean(random, listLeads, all) : undefined
  const opening = [intro, lead].filter((s) => s !== undefined).join(" ")
  if (opening !== "") paragraphs.push(opening)
  if (bullets) {
    if (lines.length > 0) paragraphs.push(lines.join("\n"))
  } else {
    // One to three paragraphs of brands, so that the whole stays short.
    const size = Math.ceil(lines.length / random.int(1, 3))
    for (let i = 0; i < lines.length; i += size) paragraphs.push(lines.slice(i, i + size).join(" "))
  }
  if (style.closing) {
    const closing = clean(random, closingSentences, all)
    if (closing !== undefined) paragraphs.push(closing)
  }
  if (style.links === "sources") {
    const sources = sourceLinks(citations, all)
    if (sources !== undefined) paragraphs.push(sources)
  }

  return {
    answer: { text: [simulatedLabel, ...paragraphs].join("\n\n"), citations, simulated: true, ...unreported },
    mentioned,
    untracked: rivals.map((r) => r.spelling)
  }
}

// --- How each platform tends to answer ------------------------------------------------------------

interface Style {
  /** The chance of a bulleted list rather than paragraphs. */
  readonly bullets: number
  readonly maxBrands: number
  /** The chance of a second sentence on a brand. */
  readonly followUp: number
  readonly citations: readonly [min: number, max: number]
  /** How the text refers to its citations: not at all, `[n]` markers, or a closing line of links. */
  readonly links: "none" | "markers" | "sources"
  readonly closing: boolean
}

const styles: Record<Platform, Style> = {
  chatgpt: { bullets: 0.5, maxBrands: 5, followUp: 0.3, citations: [2, 5], links: "sources", closing: true },
  perplexity: { bullets: 0.3, maxBrands: 5, followUp: 0.3, citations: [5, 8], links: "markers", closing: true },
  gemini: { bullets: 0.7, maxBrands: 5, followUp: 0.3, citations: [2, 4], links: "none", closing: true },
  grok: { bullets: 0.2, maxBrands: 5, followUp: 0.3, citations: [2, 5], links: "none", closing: true },
  copilot: { bullets: 0.4, maxBrands: 5, followUp: 0.3, citations: [3, 6], links: "sources", closing: true },
  claude: { bullets: 0.3, maxBrands: 4, followUp: 0.3, citations: [2, 4], links: "none", closing: true },
  google_ai_mode: { bullets: 0.6, maxBrands: 5, followUp: 0.3, citations: [4, 7], links: "none", closing: true },
  google_ai_overview: { bullets: 0.3, maxBrands: 3, followUp: 0, citations: [2, 4], links: "none", closing: false }
}

// --- Brands ---------------------------------------------------------------------------------------

/** The chance that the project's own brand is among those named. */
const OWN_BRAND_CHANCE = 0.7

/**
 * Which brands the answer names, in order: usually two to five, the own brand often but not always,
 * placed anywhere. A brand every spelling of which contains another brand ("Acme Cloud" beside
 * "Acme") is left out: it could not be named alone.
 */
const chooseBrands = (random: Random, brands: ReadonlyArray<QuestionBrand>, max: number): Array<QuestionBrand> => {
  const candidates = brands.filter((brand) => spellings(brand, brands).length > 0)
  const own = candidates.filter((brand) => brand.own)
  const others = random.shuffle(candidates.filter((brand) => !brand.own))
  const wanted = Math.min(max, random.chance(0.1) ? 1 : random.int(2, 5))
  const chosen = own.length > 0 && random.chance(OWN_BRAND_CHANCE)
    ? [...own.slice(0, 1), ...others.slice(0, wanted - 1)]
    : others.slice(0, wanted)
  return random.shuffle(chosen)
}

/** The brand's name and aliases that name no other brand of the project. */
const spellings = (brand: QuestionBrand, brands: ReadonlyArray<QuestionBrand>): Array<string> =>
  [brand.name, ...brand.aliases].filter((s) => s.trim() !== "" && namesOnly(s, [brand], brands))

/**
 * One sentence on the brand, sometimes two of different tones (mixed reviews), each from a template
 * the answer has not used yet; none if none can be written.
 */
const brandSentences = (
  random: Random,
  brand: QuestionBrand,
  brands: ReadonlyArray<QuestionBrand>,
  options: { readonly bold: boolean; readonly followUp: number; readonly used: Set<string> }
): Array<string> => {
  const count = random.chance(options.followUp) ? 2 : 1
  const sentences: Array<string> = []
  for (let i = 0; i < count; i++) {
    const names = spellings(brand, brands)
    // Mostly the name, sometimes an alias.
    const name = names.length > 1 && random.chance(0.3) ? random.pick(names.slice(1)) : names[0]!
    const shown = options.bold ? `**${name}**` : name
    const templates = toneSentences[pickTone(random)].filter((t) => !options.used.has(t))
    const filled = templates.map((t) => t.replace("{b}", () => shown))
    const index = cleanIndex(random, filled, brands, [brand])
    if (index === undefined) continue
    options.used.add(templates[index]!)
    sentences.push(filled[index]!)
  }
  return sentences
}

const pickTone = (random: Random): Tone => {
  const roll = random.next()
  return roll < 0.45 ? "positive" : roll < 0.8 ? "neutral" : "negative"
}

/**
 * One of the options, from a random start, that names no brand but the allowed ones (a template's
 * plain words can be a brand's name: "Monday", "Notion"); undefined when none qualifies.
 */
const clean = (
  random: Random,
  options: ReadonlyArray<string>,
  brands: ReadonlyArray<QuestionBrand>,
  allowed: ReadonlyArray<QuestionBrand> = []
): string | undefined => {
  const index = cleanIndex(random, options, brands, allowed)
  return index === undefined ? undefined : options[index]
}

/** The index of what `clean` picks. */
const cleanIndex = (
  random: Random,
  options: ReadonlyArray<string>,
  brands: ReadonlyArray<QuestionBrand>,
  allowed: ReadonlyArray<QuestionBrand>
): number | undefined => {
  const start = random.int(0, options.length - 1)
  for (let i = 0; i < options.length; i++) {
    const index = (start + i) % options.length
    if (namesOnly(options[index]!, allowed, brands)) return index
  }
  return undefined
}

/** Whether a text names (by name, alias or domain, as detection reads it) only allowed brands. */
const namesOnly = (text: string, allowed: ReadonlyArray<QuestionBrand>, brands: ReadonlyArray<QuestionBrand>): boolean =>
  brands.every((brand) =>
    allowed.includes(brand) ||
    ([brand.name, ...brand.aliases].every((name) => findNameOccurrences(text, name).length === 0) &&
      brandDomains(brand).every((domain) => findDomainOccurrences(text, domain).length === 0))
  )

// --- Untracked rivals ------------------------------------------------------------------------------

/**
 * Up to `MAX_RIVALS` rivals (by weight) none of whose chosen spelling names a project brand, each a line
 * (a bold list item in a bulleted answer) and the place among the brand lines it goes to.
 */
const chooseRivals = (
  random: Random,
  brands: ReadonlyArray<QuestionBrand>,
  bullets: boolean
): Array<{ readonly spelling: string; readonly line: string; readonly at: number }> => {
  if (!random.chance(RIVAL_CHANCE)) return []
  const count = random.int(1, MAX_RIVALS)
  const pool = [...simulatedRivals]
  const chosen: Array<{ spelling: string; line: string; at: number }> = []
  while (chosen.length < count && pool.length > 0) {
    let roll = random.next() * pool.reduce((sum, r) => sum + r.weight, 0)
    const index = Math.max(0, pool.findIndex((r) => (roll -= r.weight) < 0))
    const [rival] = pool.splice(index, 1)
    // Mostly the name, sometimes a variant.
    const spelling = rival!.spellings.length > 1 && random.chance(0.3) ? random.pick(rival!.spellings.slice(1)) : rival!.spellings[0]!
    const sentence = random.pick(rivalSentences).replace("{r}", () => (bullets ? `**${spelling}**` : spelling))
    if (!namesOnly(sentence, [], brands)) continue
    chosen.push({ spelling, line: bullets ? `- ${sentence}` : sentence, at: random.int(0, MAX_RIVALS + 3) })
  }
  return chosen
}

// --- The prompt's topic ---------------------------------------------------------------------------

/** A question's opening words, dropped to leave its topic ("What are the best CRMs" → "the best CRMs"). */
const QUESTION_OPENING =
  /^(?:(?:what|which|who)(?:'s|\s+(?:are|is|would\s+be))\s+|(?:can|could)\s+you\s+(?:please\s+)?(?:recommend|suggest|list|name)\s+|(?:please\s+)?(?:recommend|suggest|list|name)\s+)/iu

/**
 * The prompt's topic, to echo loosely in the intro: the prompt without its question words, or the
 * prompt in quotes when it is a question of another shape. A prompt that names a brand, is long or
 * holds a URL is not echoed.
 */
const topicOf = (prompt: string, brands: ReadonlyArray<QuestionBrand>): string => {
  const text = prompt.trim().replace(/[\s?.!]+$/u, "")
  if (text === "" || text.length > 120 || /[\n\r]|https?:\/\//iu.test(text) || !namesOnly(text, [], brands)) {
    return fallbackTopic
  }
  const topic = text.replace(QUESTION_OPENING, "")
  // Lower-case a sentence's capital, not an acronym's ("CRM tools" stays).
  const lowered = /^\p{Lu}\p{Ll}/u.test(topic) ? topic[0]!.toLowerCase() + topic.slice(1) : topic
  return /^(?:how|why|when|where|should|is|are|does|do|can|could|will|would)\b/iu.test(lowered)
    ? `"${lowered}"`
    : lowered
}

// --- Citations ------------------------------------------------------------------------------------

/** The chance that a named brand's own site is among the citations. */
const BRAND_SITE_CHANCE = 0.35

/**
 * Pages of the fixed universe and sometimes the named brands' own sites, in random order. A page
 * under the domain of a brand the answer does not name is never cited: detection would count it as
 * a mention.
 */
const chooseCitations = (
  random: Random,
  style: Style,
  mentioned: ReadonlyArray<QuestionBrand>,
  unmentioned: ReadonlyArray<QuestionBrand>
): Array<string> => {
  const count = random.int(style.citations[0], style.citations[1])
  const avoided = unmentioned.flatMap(brandDomains)
  const citable = (domain: string): boolean => avoided.every((d) => !coversDomain(d, domain))
  const brandSites = mentioned
    .flatMap((brand) => brandDomains(brand).slice(0, 1))
    .filter((domain) => random.chance(BRAND_SITE_CHANCE) && citable(domain))
    .map((domain) => `https://${domain}${random.pick(brandPaths)}`)
    .slice(0, Math.floor(count / 2))
  const pages = random
    .shuffle(universe)
    .filter((page) => citable(page.domain))
    .slice(0, count - brandSites.length)
    .map((page) => page.url)
  return random.shuffle([...brandSites, ...pages])
}

/** Every page of the universe with its Source domain, worked out once. */
const universe = citedPages.flatMap(([host, paths]) =>
  paths.map((path) => {
    const url = `https://${host}${path}`
    return { url, domain: normalizeUrl(url)!.domain }
  })
)

/** Headings of the closing line of links; the first that names no brand is used. */
const SOURCE_HEADINGS = ["Sources:", "References:", "Further reading:"]

/**
 * A closing line of markdown links to the citations, for the platforms that write one. Only links
 * that name no brand are listed (a brand's site would add a neutral sentence to its sentiment).
 */
const sourceLinks = (citations: ReadonlyArray<string>, brands: ReadonlyArray<QuestionBrand>): string | undefined => {
  const links = citations
    .map((url) => `[${normalizeUrl(url)?.domain ?? url}](${url})`)
    .filter((link) => namesOnly(link, [], brands))
  const heading = SOURCE_HEADINGS.find((h) => namesOnly(h, [], brands))
  return links.length === 0 ? undefined : [heading, links.join(", ")].filter((s) => s !== undefined).join(" ")
}

// --- Seeded randomness ----------------------------------------------------------------------------

interface Random {
  /** A number in [0, 1). */
  readonly next: () => number
  /** An integer in [min, max]. */
  readonly int: (min: number, max: number) => number
  readonly chance: (probability: number) => boolean
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  /** A shuffled copy. */
  readonly shuffle: <A>(items: ReadonlyArray<A>) => Array<A>
}

/** mulberry32 over the FNV-1a hash of the seed: tiny, fast and the same on every machine. */
const seededRandom = (seed: string): Random => {
  let state = fnv1a(seed)
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1))
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (items) => items[int(0, items.length - 1)]!,
    shuffle: (items) => {
      const copy = [...items]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i)
        ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
      }
      return copy
    }
  }
}

/** FNV-1a, 32 bits, over the string's UTF-16 units. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
