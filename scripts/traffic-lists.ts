/**
 * `node --import tsx scripts/traffic-lists.ts --git OWNER/NAME=PATH ...`: rebuilds
 * src/Traffic/catalogue/ip-lists.json, the snapshots of the operators' address lists shipped with the
 * service, from local clones of the public repositories that mirror them (docs/agent-traffic.md,
 * "Refreshing the lists"). Each `--git` names where a clone (a work tree or a bare git directory) of
 * one mirror is; the files are read at the commits pinned below, so the result is the same wherever
 * it runs. Nothing of the mirrors but their data is used.
 *
 * Verbatim mirrors keep an operator's file as published (`{"creationTime", "prefixes"}`);
 * ipverse/bot-ip-blocks (CC0) keeps every list in one file, the same addresses merged into fewer
 * prefixes, with the time it last saw each list change.
 */
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { parsePublishedList, prefixesHash, type Snapshot } from "../src/Traffic/IpLists.ts"

interface Source {
  readonly id: string
  readonly covers: readonly [string, ...Array<string>]
  readonly repository: string
  readonly commit: string
  readonly path: string
  readonly licence: string
  /** The service's key in ipverse's crawlers.json; absent for a verbatim mirror. */
  readonly service?: string
}

const IPVERSE = { repository: "ipverse/bot-ip-blocks", commit: "2aecedff07cc817b0ecbbd6e766ee456e22d29d2", path: "crawlers.json", licence: "CC0-1.0" }

const sources: ReadonlyArray<Source> = [
  {
    id: "openai-gptbot",
    covers: ["openai-gptbot"],
    repository: "FabrizioCafolla/openai-crawlers-ip-ranges",
    commit: "e5496a35c585384da0d21873ac39132eff6c0790",
    path: "openai/stable/gptbot.json",
    licence: "MIT"
  },
  {
    id: "openai-searchbot",
    covers: ["openai-searchbot"],
    repository: "FabrizioCafolla/openai-crawlers-ip-ranges",
    commit: "e5496a35c585384da0d21873ac39132eff6c0790",
    path: "openai/stable/searchbot.json",
    licence: "MIT"
  },
  // The verbatim mirror's chatgpt-user.json (April 2026) is older than ipverse's, and the list has grown.
  { id: "openai-chatgpt-user", covers: ["openai-chatgpt-user"], ...IPVERSE, service: "ChatGPT-User" },
  { id: "anthropic-bots", covers: ["anthropic-bots"], ...IPVERSE, service: "ClaudeBot" },
  // ipverse keeps Perplexity's two lists as one.
  { id: "perplexity", covers: ["perplexity-perplexitybot", "perplexity-user"], ...IPVERSE, service: "PerplexityBot" },
  {
    id: "google-common-crawlers",
    covers: ["google-common-crawlers"],
    repository: "aminvakil/google-ip-list",
    commit: "8f54f920b4af6006a491e03e6e74e041e6021904",
    // The mirror saves common-crawlers.json under its former name.
    path: "googlebot.json",
    licence: "GPL-3.0 (the repository); the file is Google's published list"
  },
  { id: "microsoft-bingbot", covers: ["microsoft-bingbot"], ...IPVERSE, service: "Bingbot" },
  { id: "apple-applebot", covers: ["apple-applebot"], ...IPVERSE, service: "Applebot" },
  { id: "commoncrawl-ccbot", covers: ["commoncrawl-ccbot"], ...IPVERSE, service: "Common Crawl" },
  { id: "amazon-amazonbot", covers: ["amazon-amazonbot"], ...IPVERSE, service: "Amazonbot" }
]

const argv = process.argv.slice(2)
const clones = new Map<string, string>()
for (let i = 0; i < argv.length; i++) {
  if (argv[i] !== "--git" || argv[i + 1] === undefined) continue
  const [repository, path] = argv[i + 1]!.split("=")
  if (repository && path) clones.set(repository, path)
}
const missing = [...new Set(sources.map((source) => source.repository))].filter((repository) => !clones.has(repository))
if (missing.length > 0) {
  console.error(`usage: node --import tsx scripts/traffic-lists.ts --git OWNER/NAME=PATH ...\nmissing: ${missing.join(", ")}`)
  process.exit(2)
}

const git = (repository: string, ...args: Array<string>) =>
  execFileSync("git", ["--git-dir", gitDir(clones.get(repository)!), ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })

const gitDir = (path: string) => execFileSync("git", ["-C", path, "rev-parse", "--absolute-git-dir"], { encoding: "utf8" }).trim()

const IpverseFile = (text: string) =>
  JSON.parse(text) as { services: Record<string, { last_changed_at: string; ipv4: Array<string>; ipv6: Array<string> }> }

const snapshots: Array<Snapshot> = sources.map((source) => {
  const text = git(source.repository, "show", `${source.commit}:${source.path}`)
  const blob = git(source.repository, "rev-parse", `${source.commit}:${source.path}`).trim()
  const committedAt = git(source.repository, "show", "-s", "--format=%cI", source.commit).trim()
  const mirror = {
    repository: source.repository,
    path: source.path,
    commit: source.commit,
    committedAt,
    blob,
    licence: source.licence,
    form: source.service === undefined ? ("verbatim" as const) : ("aggregated" as const)
  }
  let creationTime: string | null = null
  let listChangedAt: string | null = null
  let prefixes: Array<string>
  if (source.service === undefined) {
    const list = parsePublishedList(text)
    creationTime = list.creationTime
    prefixes = [...list.prefixes]
  } else {
    const service = IpverseFile(text).services[source.service]
    if (service === undefined) throw new Error(`${source.repository} has no service ${source.service}`)
    listChangedAt = service.last_changed_at
    prefixes = [...service.ipv4, ...service.ipv6]
  }
  if (prefixes.length === 0) throw new Error(`${source.id}: no prefixes`)
  return {
    id: source.id,
    covers: source.covers,
    creationTime,
    listChangedAt,
    mirror,
    sha256: prefixesHash(prefixes),
    prefixes: prefixes as [string, ...Array<string>]
  }
})

const target = fileURLToPath(new URL("../src/Traffic/catalogue/ip-lists.json", import.meta.url))
writeFileSync(target, `${JSON.stringify({ snapshots }, null, 2)}\n`)
for (const snapshot of snapshots) {
  console.log(`${snapshot.id.padEnd(24)} ${String(snapshot.prefixes.length).padStart(4)} prefixes  ${snapshot.creationTime ?? `changed ${snapshot.listChangedAt}`}`)
}
