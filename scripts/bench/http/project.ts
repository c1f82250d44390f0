/**
 * The data of `npm run bench:http`: a scratch database on the PostgreSQL server of DATABASE_URL, an
 * organization and a key written there directly (as `cli keys create` would), then a realistic project
 * made through the service's own API: brands with aliases and domains (one the project's own), tags,
 * four monitors and their prompts, most carrying one to three tags. And the answers POSTed during the
 * load: 2 or 3 of the brands named, 5 citations each.
 */
import pg from "pg"
import { generateKey, hashKey, keyPrefix } from "../../../src/Domain/ApiKey.ts"

/** A database of its own on the server of `baseUrl`, and how to drop it. */
export const createScratchDatabase = async (baseUrl: string) => {
  const name = `bvm_bench_http_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const admin = new pg.Client({ connectionString: baseUrl })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
}

/** An organization and a key with every ability, written in the database; the key in clear. */
export const createKey = async (databaseUrl: string): Promise<string> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const organization = await client.query<{ id: string }>("INSERT INTO organizations (name) VALUES ('HTTP bench') RETURNING id")
    const key = generateKey()
    await client.query(
      "INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities) VALUES ($1, 'bench:http', $2, $3, ARRAY['*'])",
      [organization.rows[0]!.id, hashKey(key), keyPrefix(key)]
    )
    return key
  } finally {
    await client.end()
  }
}

/** Deterministic pseudo-randomness: the same project and answers every run. */
const generator = (seed: number) => {
  let state = seed
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
  const pick = <A>(list: ReadonlyArray<A>): A => list[Math.floor(random() * list.length)]!
  return { random, pick }
}

export const BRANDS = [
  { name: "Acme", aliases: ["Acme CRM"], domains: ["acme.com"] },
  { name: "Globex", aliases: [], domains: ["globex.io"] },
  { name: "Initech", aliases: ["Initech Cloud"], domains: ["initech.com"] },
  { name: "Umbrella", aliases: [], domains: ["umbrella.co"] },
  { name: "Hooli", aliases: ["Hooli XYZ"], domains: ["hooli.xyz"] },
  { name: "Vandelay", aliases: [], domains: ["vandelay.com"] },
  { name: "Stark Industries", aliases: ["Stark"], domains: ["stark.com"] },
  { name: "Wayne Enterprises", aliases: [], domains: ["wayne.com"] },
  { name: "Soylent", aliases: [], domains: ["soylent.example"] },
  { name: "Cyberdyne", aliases: ["Skynet"], domains: ["cyberdyne.ai"] }
]
const TAGS = ["Pricing", "Comparison", "Integrations", "Support", "Security"]
const MONITORS = [
  { name: "US daily", country: "US", platforms: ["chatgpt", "perplexity", "gemini", "claude", "google_ai_overview"] },
  { name: "GB daily", country: "GB", platforms: ["chatgpt", "perplexity", "copilot"] },
  { name: "DE daily", country: "DE", platforms: ["chatgpt", "gemini", "grok"] },
  { name: "FR weekly", country: "FR", platforms: ["chatgpt", "perplexity", "google_ai_mode"], schedule: "weekly" }
]
const TOPICS = ["CRM for a small agency", "help desk software", "invoicing tool for freelancers", "sales pipeline tracker",
  "customer support chat", "email marketing platform", "project management app", "contact management for nonprofits"]
const REVIEW_DOMAINS = ["g2.com", "capterra.com", "reddit.com", "en.wikipedia.org", "techradar.com", "forbes.com", "zapier.com",
  "pcmag.com", "trustradius.com", "news.ycombinator.com"]
const PRAISE = ["is excellent for small teams", "is a solid choice", "is the easiest to start with", "has great support"]
const BLAME = ["is expensive", "can be slow to set up", "has a confusing interface", "lacks integrations"]
const FILLER = "Pricing varies with the number of seats, and most vendors offer a free trial of two weeks. " +
  "Integrations with email, calendars and accounting tools matter more than the feature list. " +
  "Check the reviews on independent sites before committing to an annual plan."

export const PROMPTS_PER_MONITOR = 50

export interface BenchProject {
  readonly projectId: number
  /** Each prompt with the platforms of its monitor, and how many tags it carries. */
  readonly prompts: ReadonlyArray<{ readonly id: number; readonly platforms: ReadonlyArray<string>; readonly tags: number }>
}

/** Makes the bench project through the API of the service at `baseUrl`, a few requests at a time. */
export const seedProject = async (baseUrl: string, key: string): Promise<BenchProject> => {
  const { pick, random } = generator(7)
  let projectId = 0
  const api = async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "service-project-id": String(projectId),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000)
    })
    const text = await reply.text()
    if (!reply.ok) throw new Error(`seeding: ${method} ${path} answered ${reply.status}: ${text}`)
    return JSON.parse(text).data
  }
  projectId = (await api("POST", "/projects", { name: "HTTP bench project", domain: "acme.com" })).id
  const brands = []
  for (const brand of BRANDS) brands.push(await api("POST", "/brands", brand))
  await api("PATCH", `/projects/${projectId}`, { brand_id: brands[0].id })
  const tagIds: Array<number> = (await api("GET", "/tags")).map((tag: { id: number }) => tag.id)
  for (const name of TAGS) tagIds.push((await api("POST", "/tags", { name })).id)
  const prompts: Array<{ id: number; platforms: ReadonlyArray<string>; tags: number }> = []
  for (const monitor of MONITORS) {
    const { id } = await api("POST", "/monitors", monitor)
    const texts = Array.from({ length: PROMPTS_PER_MONITOR }, (_, i) => `What is the best ${TOPICS[i % TOPICS.length]} (${monitor.country} #${i + 1})?`)
    // Eight at a time: the seeding takes seconds, not minutes.
    for (let i = 0; i < texts.length; i += 8) {
      const made = await Promise.all(texts.slice(i, i + 8).map((text) => {
        const tags = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(tagIds)))]
        return api("POST", "/prompts", { monitor_id: id, text, tags: random() < 0.1 ? [] : tags })
      }))
      for (const prompt of made) prompts.push({ id: prompt.id, platforms: monitor.platforms, tags: prompt.tags.length })
    }
  }
  return { projectId, prompts }
}

/**
 * `count` bodies of `POST /responses` (the answers are collected now): ~600 characters naming 2 or 3
 * brands by name or alias, and 5 citations, 2 of the named brands' sites and 3 of review sites, their
 * paths varied so that new source URLs keep coming as they do in production.
 */
export const answerBodies = (project: BenchProject, count: number): Array<string> => {
  const { pick, random } = generator(11)
  return Array.from({ length: count }, () => {
    const prompt = pick(project.prompts)
    const named = [...BRANDS].sort(() => random() - 0.5).slice(0, 2 + Math.floor(random() * 2))
    const sentences = named.map((brand, i) => {
      const name = i === 0 || brand.aliases.length === 0 ? brand.name : brand.aliases[0]!
      return `${name} ${random() < 0.6 ? pick(PRAISE) : pick(BLAME)}.`
    })
    const citations = [
      ...named.slice(0, 2).map((brand) => `https://www.${brand.domains[0]}/pricing?utm_source=ai&id=${Math.floor(random() * 1000)}`),
      ...Array.from({ length: 3 }, () => `https://${pick(REVIEW_DOMAINS)}/articles/${Math.floor(random() * 5000)}`)
    ]
    return JSON.stringify({ prompt_id: prompt.id, platform: pick(prompt.platforms), text: `${sentences.join(" ")} ${FILLER}`, citations })
  })
}
