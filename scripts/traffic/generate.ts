/**
 * Synthetic access logs in the combined format, for the traffic benchmark and tests: a realistic mix
 * of people (a few referred by AI platforms), catalogue agents from their operators' published ranges,
 * the same agents' names spoofed from elsewhere, agents whose operators publish nothing, and other
 * bots. Deterministic for a seed.
 */
import ipaddr from "ipaddr.js"
import { catalogue } from "../../src/Traffic/Agent.ts"
import { shippedSnapshots } from "../../src/Traffic/IpLists.ts"

/** mulberry32: a small, fast, seedable generator (quality is plenty for a traffic mix). */
export const random = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const BROWSERS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
]

const OTHER_BOTS = [
  "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
  "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  "python-requests/2.32.3",
  "curl/8.5.0",
  "Go-http-client/2.0"
]

const AI_REFERERS = ["https://chatgpt.com/", "https://www.perplexity.ai/", "https://gemini.google.com/", "https://copilot.microsoft.com/", "https://claude.ai/"]
const OTHER_REFERERS = ["-", "-", "-", "https://www.google.com/", "https://www.bing.com/", "https://news.ycombinator.com/"]
const ASSETS = ["/static/app.js", "/static/app.css", "/img/logo.png", "/favicon.ico", "/fonts/inter.woff2"]
const PAGES = Array.from({ length: 400 }, (_, i) => (i === 0 ? "/" : `/${["blog", "docs", "pricing", "features", "compare"][i % 5]}/${i}`))

/** A user agent of the agent's own shape, with its documented token. */
const agentUserAgent = (token: string) => `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ${token}/1.0; +https://example.invalid/bot)`

interface Pool {
  readonly userAgent: string
  /** Addresses in the operator's published ranges; empty when it publishes none. */
  readonly addresses: ReadonlyArray<string>
}

/** A few addresses inside each shipped prefix of the lists an agent verifies against. */
const agentPools = (): ReadonlyArray<Pool> => {
  const prefixesByList = new Map<string, Array<string>>()
  for (const snapshot of shippedSnapshots) for (const list of snapshot.covers) prefixesByList.set(list, [...snapshot.prefixes])
  return catalogue.agents
    .filter((agent) => agent.purpose !== "token_only")
    .map((agent) => {
      const prefixes = agent.verification.method === "ip_list" ? agent.verification.lists.flatMap((list) => prefixesByList.get(list) ?? []) : []
      return { userAgent: agentUserAgent(agent.name), addresses: prefixes.slice(0, 50).map(addressInside) }
    })
}

/** An address inside a prefix: its base plus one (IPv4 /32 and IPv6 /128: the base itself). */
const addressInside = (prefix: string): string => {
  const [base, length] = ipaddr.parseCIDR(prefix)
  const bytes = base.toByteArray()
  if ((base.kind() === "ipv4" && length < 32) || (base.kind() === "ipv6" && length < 128)) bytes[bytes.length - 1] = bytes[bytes.length - 1]! | 1
  return ipaddr.fromByteArray(bytes).toString()
}

/** First octets of public IPv4 space only (no 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.168/16). */
const PUBLIC_FIRST_OCTETS = [...Array.from({ length: 89 }, (_, i) => 11 + i), ...Array.from({ length: 26 }, (_, i) => 101 + i)]
const PROXY = "10.0.0.5"

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
const clf = (millis: number) => {
  const d = new Date(millis)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`
}

export interface GenerateOptions {
  readonly lines: number
  readonly seed?: number
  /** First request's time; the lines then span `days` days. */
  readonly start?: number
  readonly days?: number
}

/** The lines, generated one at a time (nothing is held). */
export const generateLines = function*(options: GenerateOptions): Generator<string> {
  const next = random(options.seed ?? 1)
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!
  const start = options.start ?? Date.UTC(2026, 9, 1)
  const step = ((options.days ?? 7) * 86_400_000) / Math.max(1, options.lines)
  const pools = agentPools()
  const listed = pools.filter((pool) => pool.addresses.length > 0)
  const unlisted = pools.filter((pool) => pool.addresses.length === 0)
  const publicAddress = () => `${pick(PUBLIC_FIRST_OCTETS)}.${Math.floor(next() * 256)}.${Math.floor(next() * 256)}.${1 + Math.floor(next() * 254)}`
  for (let i = 0; i < options.lines; i++) {
    const time = start + Math.floor(i * step)
    const roll = next()
    let ip: string
    let userAgent: string
    let referer = "-"
    let path = pick(PAGES)
    if (roll < 0.2) {
      const pool = pick(listed)
      ;[ip, userAgent] = [pick(pool.addresses), pool.userAgent]
    } else if (roll < 0.205) {
      // A listed agent seen through a proxy that logs its own private address.
      ;[ip, userAgent] = [PROXY, pick(listed).userAgent]
    } else if (roll < 0.23) {
      // A listed agent's name, spoofed from anywhere.
      ;[ip, userAgent] = [publicAddress(), pick(listed).userAgent]
    } else if (roll < 0.25) {
      ;[ip, userAgent] = [publicAddress(), pick(unlisted).userAgent]
    } else if (roll < 0.35) {
      ;[ip, userAgent] = [publicAddress(), pick(OTHER_BOTS)]
    } else {
      ip = next() < 0.02 ? PROXY : publicAddress()
      userAgent = pick(BROWSERS)
      const kind = next()
      if (kind < 0.45) path = pick(ASSETS)
      else if (kind < 0.48) referer = pick(AI_REFERERS)
      else if (kind < 0.49) path = `${path}?utm_source=chatgpt.com`
      else referer = pick(OTHER_REFERERS)
      if (next() < 0.1) path = `${path}${path.includes("?") ? "&" : "?"}session=${Math.floor(next() * 1e9)}`
    }
    const status = ((s) => (s < 0.9 ? 200 : s < 0.95 ? 304 : s < 0.98 ? 404 : s < 0.99 ? 500 : 301))(next())
    const bytes = status === 304 ? 0 : 500 + Math.floor(next() * 50_000)
    yield `${ip} - - [${clf(time)}] "GET ${path} HTTP/1.1" ${status} ${bytes} "${referer}" "${userAgent}"`
  }
}
