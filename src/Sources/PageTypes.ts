/**
 * The page type of a source URL, from the URL alone (docs/detection.md, "Page types"): first the path
 * patterns of well-known hosts (a YouTube watch page, a Reddit thread), then generic rules on the host's
 * first label, the path's segments and its last segment's words, in a fixed order. Pure.
 */
import { parse } from "tldts"

export const pageTypes = [
  "homepage",
  "article",
  "listicle",
  "comparison",
  "product",
  "category",
  "documentation",
  "forum_thread",
  "video",
  "profile",
  "other"
] as const
export type PageType = (typeof pageTypes)[number]

/** Path patterns (on the lower-cased, decoded path) of hosts whose URLs have a known shape. */
interface HostPatterns {
  /** `example.com` covers the host and its subdomains; `amazon.*` every registrable domain named so. */
  readonly hosts: ReadonlyArray<string>
  /** The first pattern that matches gives the type; none matching leaves the URL to the generic rules. */
  readonly paths: ReadonlyArray<readonly [RegExp, PageType]>
}

export const hostPatterns: ReadonlyArray<HostPatterns> = [
  {
    hosts: ["youtube.com", "youtube-nocookie.com"],
    paths: [
      [/^\/(?:watch|shorts\/|live\/|embed\/)/, "video"],
      [/^\/(?:@|channel\/|c\/|user\/)/, "profile"],
      [/^\/(?:playlist|feed\/|results)/, "category"]
    ]
  },
  { hosts: ["youtu.be"], paths: [[/^\/./, "video"]] },
  { hosts: ["vimeo.com"], paths: [[/^\/(?:\d+|video\/)/, "video"], [/^\/(?:channels|categories|groups)\//, "category"], [/^\/[^/]+\/?$/, "profile"]] },
  { hosts: ["dailymotion.com"], paths: [[/^\/video\//, "video"]] },
  { hosts: ["twitch.tv"], paths: [[/^\/videos\//, "video"], [/^\/[^/]+\/?$/, "profile"]] },
  { hosts: ["tiktok.com"], paths: [[/^\/@[^/]+\/video\//, "video"], [/^\/@[^/]+\/?$/, "profile"]] },
  {
    hosts: ["reddit.com"],
    paths: [
      [/^\/r\/[^/]+\/comments\//, "forum_thread"],
      [/^\/(?:user|u)\//, "profile"],
      [/^\/r\/[^/]+(?:\/(?:top|new|hot|rising|wiki)\/?)?\/?$/, "category"]
    ]
  },
  { hosts: ["redd.it"], paths: [[/^\/./, "forum_thread"]] },
  {
    hosts: ["quora.com"],
    paths: [
      [/^\/profile\//, "profile"],
      [/^\/(?:topic|q)\//, "category"],
      [/^\/[^/]+(?:\/answers?\/[^/]+)?\/?$/, "forum_thread"]
    ]
  },
  {
    hosts: ["stackoverflow.com", "stackexchange.com", "superuser.com", "serverfault.com", "askubuntu.com", "mathoverflow.net"],
    paths: [
      [/^\/questions\/tagged\//, "category"],
      [/^\/(?:questions|q|a)\/\d+/, "forum_thread"],
      [/^\/users\//, "profile"],
      [/^\/(?:questions|tags)\/?$/, "category"]
    ]
  },
  { hosts: ["news.ycombinator.com"], paths: [[/^\/item/, "forum_thread"], [/^\/user/, "profile"]] },
  {
    hosts: ["github.com"],
    paths: [
      [/^\/(?:features|pricing|enterprise|team|solutions|topics|collections|trending|explore|marketplace|sponsors|about|login|signup|orgs|settings|search)(?:\/|$)/, "other"],
      [/^\/[^/]+\/[^/]+\/(?:issues|pull|discussions)\/\d+/, "forum_thread"],
      [/^\/[^/]+\/[^/]+\/(?:issues|pulls|discussions)\/?$/, "category"],
      [/^\/[^/]+\/[^/]+/, "documentation"],
      [/^\/[^/]+\/?$/, "profile"]
    ]
  },
  {
    hosts: ["linkedin.com"],
    paths: [
      [/^\/(?:in|company|school|showcase)\//, "profile"],
      [/^\/(?:pulse|advice)\//, "article"],
      [/^\/(?:posts|feed\/update)\//, "forum_thread"],
      [/^\/products\//, "product"]
    ]
  },
  {
    hosts: ["x.com", "twitter.com"],
    paths: [
      [/^\/[^/]+\/status\//, "forum_thread"],
      [/^\/(?:home|explore|search|i|settings|hashtag)(?:\/|$)/, "other"],
      [/^\/[^/]+\/?$/, "profile"]
    ]
  },
  {
    hosts: ["facebook.com", "fb.com"],
    paths: [
      [/^\/(?:watch|reel)|^\/[^/]+\/videos\//, "video"],
      [/^\/groups\/[^/]+\/(?:posts|permalink)\/|^\/[^/]+\/posts\//, "forum_thread"],
      [/^\/groups\/[^/]+\/?$/, "category"],
      [/^\/profile\.php|^\/people\//, "profile"],
      [/^\/(?:marketplace|events|pages|help|login|policies|business)(?:\/|$)/, "other"],
      [/^\/[^/]+\/?$/, "profile"]
    ]
  },
  { hosts: ["instagram.com"], paths: [[/^\/(?:reels?|tv)\//, "video"], [/^\/p\//, "forum_thread"], [/^\/(?:explore|accounts)(?:\/|$)/, "other"], [/^\/[^/]+\/?$/, "profile"]] },
  { hosts: ["medium.com"], paths: [[/^\/@[^/]+\/?$/, "profile"], [/^\/(?:tag|topic)\//, "category"], [/^\/[^/]+\/[^/]+/, "article"]] },
  { hosts: ["substack.com"], paths: [[/^\/@[^/]+\/?$/, "profile"], [/^\/p\//, "article"]] },
  {
    hosts: ["wikipedia.org"],
    paths: [
      [/^\/wiki\/(?:category|kategorie|catégorie|categoría|categoria|categorie):/, "category"],
      [/^\/wiki\/(?:special|spezial|spécial|especial|speciale|speciaal|user|benutzer|utilisateur|usuario|utente|utilizador|gebruiker):/, "other"],
      [/^\/wiki\//, "article"]
    ]
  },
  {
    hosts: ["amazon.*"],
    paths: [
      [/\/(?:dp|gp\/product|gp\/aw\/d|product-reviews)\//, "product"],
      [/^\/(?:s|b|gp\/bestsellers|gp\/browse\.html|stores)(?:\/|$)/, "category"]
    ]
  },
  { hosts: ["ebay.*"], paths: [[/^\/itm\//, "product"], [/^\/(?:b|sch)\//, "category"], [/^\/(?:str|usr)\//, "profile"]] },
  { hosts: ["etsy.com"], paths: [[/^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?listing\//, "product"], [/^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?shop\//, "profile"], [/^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:c|market|search)(?:\/|$)/, "category"]] },
  { hosts: ["apps.apple.com"], paths: [[/\/app\//, "product"], [/\/developer\//, "profile"], [/\/(?:genre|charts)\//, "category"]] },
  { hosts: ["play.google.com"], paths: [[/^\/store\/apps\/details/, "product"], [/^\/store\/apps\/(?:dev|developer)/, "profile"], [/^\/store\/apps\/(?:category|top)/, "category"]] },
  { hosts: ["chromewebstore.google.com", "addons.mozilla.org", "marketplace.visualstudio.com"], paths: [[/\/(?:detail|addon|items)(?:\/|$)/, "product"]] },
  {
    hosts: ["g2.com", "capterra.*", "getapp.com", "trustradius.com"],
    paths: [
      [/^\/compare\//, "comparison"],
      [/\/alternatives(?:\/|$)/, "listicle"],
      [/^\/(?:products|p|reviews|software)\/[^/]+/, "product"],
      [/^\/categories\/|^\/[a-z-]+-software\/?$/, "category"]
    ]
  },
  { hosts: ["trustpilot.com", "glassdoor.*", "yelp.*", "kununu.com"], paths: [[/^\/(?:review|biz|overview|reviews|[a-z]{2}\/[a-z-]+\/[a-z-]+)\//, "profile"]] },
  { hosts: ["tripadvisor.*"], paths: [[/^\/showtopic-/, "forum_thread"], [/^\/(?:hotel|restaurant|attraction)_review-/, "product"], [/^\/(?:hotels|restaurants|attractions)-/, "category"]] },
  { hosts: ["producthunt.com"], paths: [[/^\/(?:products|posts)\//, "product"], [/^\/@/, "profile"], [/^\/(?:topics|categories)\//, "category"]] },
  { hosts: ["readthedocs.io", "readthedocs.org", "gitbook.io", "developer.mozilla.org"], paths: [[/^/, "documentation"]] }
]

/** First labels of a documentation host: docs.example.com, help.example.com. */
const documentationHosts = new Set(["docs", "doc", "developer", "developers", "devdocs", "api", "help", "support", "kb", "learn", "manual", "wiki"])
/** First labels of a forum host, where a page below the root is a thread. */
const forumHosts = new Set(["forum", "forums", "community", "communities", "discuss", "discussion", "discussions", "answers", "boards"])

/** Path segments that a locale makes: /en, /en-us, /de_de, /uk. */
const locale = /^(?:[a-z]{2}(?:[-_][a-z]{2,4})?|us|uk|gb|au|ca|ch|at|be|br|mx|ie|nz|intl|global|international)$/
const languages = new Set([
  "en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "nb", "fi", "pl", "cs", "sk", "hu", "ro", "bg", "el", "tr",
  "ru", "uk", "ja", "zh", "ko", "ar", "he", "hi", "id", "th", "vi", "ms", "ca", "eu", "gl", "hr", "sl", "sr", "lt", "lv", "et"
])
const isLocale = (segment: string): boolean =>
  locale.test(segment) && (segment.length !== 2 || languages.has(segment) || ["us", "gb", "au", "ch", "at", "be", "br", "mx", "ie", "nz"].includes(segment))
const indexPages = new Set(["index.html", "index.htm", "index.php", "index.aspx", "default.aspx", "index", "home"])
const searchParameters = ["q", "s", "query", "search", "k", "keyword", "keywords"]

/** Segments that hold documentation (docs.example.com/… is documentation by its host). */
const documentationSegments = new Set([
  "docs", "doc", "documentation", "api-reference", "apidocs", "api-docs", "reference", "manual", "manuals", "handbook", "kb",
  "knowledge-base", "knowledgebase", "knowledge", "help", "helpcenter", "help-center", "hc", "support", "faq", "faqs",
  "developer", "developers", "changelog", "release-notes", "releasenotes", "sdk", "hilfe", "aide", "ayuda", "aiuto", "ajuda"
])
/** Segments after which the next segment is a thread: /forum/…, /questions/123 (and Discourse's /t/slug/123). */
const forumSegments = new Set(["forum", "forums", "thread", "threads", "topic", "discussion", "discussions", "questions", "question", "community", "comments"])
/** Segments after which the next segment names a person or an organization. */
const profileSegments = new Set([
  "user", "users", "u", "profile", "profiles", "people", "person", "author", "authors", "members", "member", "team", "staff",
  "speakers", "contributors", "organization", "organisations", "organizations", "autor", "auteur"
])
/** Words of a comparison: acme-vs-globex, compare/…, vergleich. */
const comparisonWords = new Set([
  "vs", "versus", "compare", "comparison", "comparisons", "comparatif", "comparaison", "vergleich", "comparativa",
  "comparativo", "comparacion", "comparación", "confronto", "vergelijking", "vergelijken"
])
/** Words that open a ranked list: best-…, beste, meilleurs, mejores, migliori, melhores. */
const listWords = new Set([
  "meilleurs", "meilleures", "meilleur", "mejores", "mejor", "migliori", "migliore", "melhores", "melhor", "ranking",
  "rankings", "alternatives", "alternativen", "alternatieven", "alternativas", "alternative"
])
/** Segments that hold ranked lists: /best/laptops, /top/crm. */
const rankedSegments = new Set(["best", "top", "rankings", "ranking", "bestenliste"])
/** After "best", words that make a different phrase: best practices, best sellers, Best Buy. */
const notListAfterBest = new Set(["practice", "practices", "seller", "sellers", "buy", "western", "friend", "friends", "of"])
/** Nouns a number counts in a list title: 10-ways, 7-tools. */
const listNouns = new Set([
  "ways", "tips", "tools", "apps", "things", "reasons", "ideas", "examples", "alternatives", "sites", "websites", "software",
  "companies", "brands", "products", "services", "platforms", "options", "books", "plugins", "extensions", "crms", "providers"
])
const productSegments = new Set([
  "product", "products", "p", "dp", "item", "items", "itm", "produkt", "produkte", "produit", "produits", "producto",
  "productos", "prodotto", "prodotti", "produto", "produtos", "solutions"
])
/** Pages of a product site that are about the product itself. */
const productPages = new Set(["pricing", "prices", "plans", "features", "buy", "download", "downloads", "preise", "tarifs", "precios", "prezzi", "precos", "preços", "prijzen", "solutions", "integrations", "demo"])
const categorySegments = new Set([
  "category", "categories", "c", "collections", "collection", "tag", "tags", "topics", "browse", "department", "departments",
  "catalog", "catalogue", "kategorie", "categorie", "categoria", "categoría", "archive", "archives", "shop", "store"
])
const articleSegments = new Set([
  "blog", "blogs", "news", "article", "articles", "post", "posts", "story", "stories", "insights", "resources", "magazine",
  "press", "press-release", "press-releases", "newsroom", "journal", "learn", "guides", "guide", "tutorials", "tutorial",
  "how-to", "wiki", "glossary", "definition", "dictionary", "lexikon", "nachrichten", "actualites", "actualités", "noticias", "notizie", "nieuws", "ratgeber", "artikel"
])
const videoSegments = new Set(["video", "videos", "watch", "embed", "webinar", "webinars"])

interface Shape {
  readonly host: string
  /** The registrable domain's name before its public suffix: `amazon` for www.amazon.co.uk. */
  readonly registrableName: string | null
  /** Lower-cased, decoded, non-empty path segments. */
  readonly segments: ReadonlyArray<string>
  readonly path: string
  readonly query: URLSearchParams
  /** The words of the last segment, its file extension dropped: `best-crm-tools.html` → best, crm, tools. */
  readonly slugWords: ReadonlyArray<string>
}

const decode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

const shapeOf = (url: URL): Shape => {
  const path = decode(url.pathname).toLowerCase()
  const segments = path.split("/").filter((s) => s !== "")
  const last = segments.at(-1) ?? ""
  const slug = last.replace(/\.(?:html?|php|aspx?|jsp|shtml|cfm)$/, "")
  return {
    host: url.hostname.replace(/^www\./, ""),
    registrableName: parse(url.hostname, { extractHostname: false }).domainWithoutSuffix,
    segments,
    path,
    query: url.searchParams,
    slugWords: slug.split(/[-_.+,\s]/).filter((w) => w !== "")
  }
}

const covers = (entry: string, shape: Shape): boolean =>
  entry.endsWith(".*")
    ? shape.registrableName === entry.slice(0, -2)
    : shape.host === entry || shape.host.endsWith(`.${entry}`)

const byHost = (shape: Shape): PageType | undefined => {
  for (const { hosts, paths } of hostPatterns) {
    if (!hosts.some((entry) => covers(entry, shape))) continue
    for (const [pattern, type] of paths) if (pattern.test(shape.path)) return type
    return undefined
  }
  return undefined
}

/** A segment of `set` followed by at least one more segment. */
const followedIn = (segments: ReadonlyArray<string>, set: ReadonlySet<string>): boolean =>
  segments.slice(0, -1).some((s) => set.has(s))

const isListicle = (words: ReadonlyArray<string>): boolean =>
  words.some((word, i) => {
    const next = words[i + 1]
    if (word === "best" || word === "beste" || word === "besten") return next !== undefined && !notListAfterBest.has(next)
    if (word === "top") return next !== undefined && /^\d{1,3}$/.test(next)
    if (/^top\d{1,3}$/.test(word)) return true
    if (/^\d{1,3}$/.test(word)) return next !== undefined && (listNouns.has(next) || next === "best" || next === "top")
    return listWords.has(word)
  })

const looksDated = (path: string): boolean =>
  /\/(?:19|20)\d\d\/(?:0?[1-9]|1[0-2]|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:\/|$)|\/(?:19|20)\d\d-\d\d-\d\d[-/]/.test(path)

/** The segments without up to two leading locales (/us/en/…), and without a lone index page (/index.html). */
const meaningfulSegments = (segments: ReadonlyArray<string>): ReadonlyArray<string> => {
  let start = 0
  while (start < 2 && start < segments.length && isLocale(segments[start]!)) start++
  const rest = segments.slice(start)
  return rest.length === 1 && indexPages.has(rest[0]!) ? [] : rest
}

/** The generic rules, in order; the first that holds gives the type. */
const byShape = (shape: Shape): PageType => {
  const { segments, slugWords } = shape
  const firstLabel = shape.host.split(".")[0] ?? ""
  const meaningful = meaningfulSegments(segments)
  const hostLabels = shape.host.split(".").length

  if (hostLabels > 2 && documentationHosts.has(firstLabel)) return "documentation"
  if (meaningful.length === 0) {
    if (searchParameters.some((p) => shape.query.has(p))) return "other"
    if (shape.query.has("p") || shape.query.has("page_id")) return "article"
    return "homepage"
  }
  if (/\.(?:mp4|webm|mov|m4v)$/.test(shape.path) || segments[0] === "watch" || followedIn(segments, videoSegments)) return "video"
  if (hostLabels > 2 && forumHosts.has(firstLabel)) {
    if (followedIn(segments, profileSegments)) return "profile"
    if (followedIn(segments, categorySegments)) return "category"
    return "forum_thread"
  }
  if (followedIn(segments, forumSegments) || /\/t\/[^/]+\/\d+(?:\/|$)/.test(shape.path)) return "forum_thread"
  const first = meaningful[0]!
  if ((first.startsWith("@") && meaningful.length === 1) || followedIn(meaningful.slice(0, 3), profileSegments)) return "profile"
  if (segments.some((s) => documentationSegments.has(s))) return "documentation"
  if (segments.some((s) => comparisonWords.has(s)) || slugWords.some((w) => comparisonWords.has(w))) return "comparison"
  if (isListicle(slugWords) || followedIn(segments, rankedSegments)) return "listicle"
  if (followedIn(meaningful, productSegments) || meaningful.some((s) => productPages.has(s))) return "product"
  if (followedIn(meaningful.slice(0, 2), categorySegments)) return "category"
  const last = meaningful.at(-1)!
  if (meaningful.length === 1 && (articleSegments.has(last) || productSegments.has(last) || categorySegments.has(last))) return "category"
  if (followedIn(segments, articleSegments) || looksDated(shape.path)) return "article"
  if (slugWords.some((w) => w === "review" || w === "reviews") || (slugWords.length >= 4 && /[a-z]/.test(last))) return "article"
  return "other"
}

/** The page type of an http(s) URL; anything else is `other`. */
export const pageTypeOf = (raw: string): PageType => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return "other"
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "other"
  const shape = shapeOf(url)
  return byHost(shape) ?? byShape(shape)
}
