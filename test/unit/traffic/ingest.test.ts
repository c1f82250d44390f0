import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Readable } from "node:stream"
import { gzipSync } from "node:zlib"
import { generateLines } from "../../../scripts/traffic/generate.ts"
import { catalogue } from "../../../src/Traffic/Agent.ts"
import { type Classified, classifier } from "../../../src/Traffic/Classify.ts"
import { parserFor } from "../../../src/Traffic/Formats/Formats.ts"
import { type IngestOptions, ingestLog } from "../../../src/Traffic/Ingest.ts"
import { listIndex, shippedSnapshots } from "../../../src/Traffic/IpLists.ts"
import type { LogLine } from "../../../src/Traffic/LogLine.ts"
import { MAX_LINE_BYTES } from "../../../src/Traffic/LogStream.ts"
import { OWN_USER_AGENT_TOKEN, userAgentMatcher } from "../../../src/Traffic/Match.ts"
import { TrafficRollupsRepo } from "../../../src/Traffic/Repo.ts"
import { TrafficRollupsRepoMemory } from "../../../src/Traffic/RepoMemory.ts"
import { mergeRollups, type Rollup, sortRollup } from "../../../src/Traffic/Rollup.ts"
import { Salt } from "../../../src/Traffic/Salt.ts"
import { verifier } from "../../../src/Traffic/Verify.ts"
import * as Fixture from "./fixtures.ts"

const SECRET = "test-salt"

/** Ingests bytes given in chunks (to cross chunk boundaries as a real stream does). */
const ingest = (bytes: Buffer, options: Partial<IngestOptions> = {}, chunkSize = 4096) => {
  const chunks: Array<Buffer> = []
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize))
  return ingestLog(Readable.from(chunks), { format: "auto", siteHosts: [], ...options }).pipe(Effect.provide(Salt.fixed(SECRET)))
}

const text = (lines: ReadonlyArray<string>, finalNewline = true) => Buffer.from(lines.join("\n") + (finalNewline ? "\n" : ""))

const combinedLine = (ip: string, path: string, userAgent: string, referer = "-", status = 200) =>
  `${ip} - - [10/Oct/2026:13:55:36 +0000] "GET ${path} HTTP/1.1" ${status} 512 "${referer}" "${userAgent}"`

describe("reading a log", () => {
  it.effect("reads a gzip log like the plain one", () =>
    Effect.gen(function*() {
      const lines = [...generateLines({ lines: 2000, seed: 7 })]
      const plain = yield* ingest(text(lines))
      const gzipped = yield* ingest(gzipSync(text(lines)), {}, 1000)
      expect(gzipped).toEqual(plain)
      expect(plain.report.parsed).toBe(2000)
    }))

  it.effect("reports a cut last line as unparsed and counts the rest, plain or gzip", () =>
    Effect.gen(function*() {
      const lines = [...generateLines({ lines: 100, seed: 3 })]
      const last = lines[lines.length - 1]!
      const cut = [...lines.slice(0, -1), last.slice(0, last.length - 20)]
      const whole = yield* ingest(text(lines.slice(0, -1)))
      for (const bytes of [text(cut, false), gzipSync(text(cut, false))]) {
        const result = yield* ingest(bytes)
        expect(result.report).toMatchObject({ lines: 100, parsed: 99, unparsed: 1 })
        expect(result.rollup).toEqual(whole.rollup)
      }
    }))

  it.effect("reads a gzip stream cut short up to where it stops", () =>
    Effect.gen(function*() {
      const lines = [...generateLines({ lines: 3000, seed: 5 })]
      const gzipped = gzipSync(text(lines))
      const result = yield* ingest(gzipped.subarray(0, Math.floor(gzipped.length / 2)))
      expect(result.report.parsed).toBeGreaterThan(100)
      expect(result.report.parsed).toBeLessThan(3000)
      // At most the line the cut went through is unreadable.
      expect(result.report.unparsed).toBeLessThanOrEqual(1)
      expect(result.report.lines).toBe(result.report.parsed + result.report.unparsed)
    }))

  it.effect("fails on a stream that is not gzip past its magic number", () =>
    Effect.gen(function*() {
      const corrupt = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(64, 7)])
      const error = yield* Effect.flip(ingest(corrupt))
      expect(error._tag).toBe("LogReadError")
    }))

  it.effect("reads CRLF line ends, and counts an overlong line as unparsed without holding it", () =>
    Effect.gen(function*() {
      const line = combinedLine("192.0.2.1", "/a", Fixture.BROWSER_UA)
      const huge = `${line.slice(0, 40)}${"x".repeat(MAX_LINE_BYTES * 3)}`
      const result = yield* ingest(Buffer.from(`${line}\r\n${huge}\r\n${line}\r\n`), {}, 1000)
      expect(result.report).toMatchObject({ lines: 3, parsed: 2, unparsed: 1 })
    }))

  it.effect("an empty log", () =>
    Effect.gen(function*() {
      const result = yield* ingest(Buffer.alloc(0))
      expect(result.report).toMatchObject({ lines: 0, parsed: 0, firstTime: null, lastTime: null })
      expect(result.rollup).toEqual({ totals: [], agentHits: [], unknownBots: [], referrals: [] })
    }))
})

describe("counting", () => {
  it.effect("keeps the site's hosts only, and never counts our own collector", () =>
    Effect.gen(function*() {
      const record = JSON.parse(Fixture.cloudflareLogpush) as Record<string, unknown>
      const lines = [
        JSON.stringify(record),
        JSON.stringify({ ...record, ClientRequestHost: "EXAMPLE.com:443" }),
        JSON.stringify({ ...record, ClientRequestHost: "staging.example.com" }),
        JSON.stringify({ ...record, ClientRequestUserAgent: `${OWN_USER_AGENT_TOKEN}/1.0` })
      ]
      const result = yield* ingest(text(lines), { siteHosts: ["www.example.com", "example.com"] })
      expect(result.report).toMatchObject({ parsed: 4, filtered: 1, own: 1, agentHits: 2 })
      expect(result.rollup.totals).toEqual([{ day: "2026-10-10", requests: 2, htmlRequests: 2 }])
    }))

  it.effect("counts visits and distinct visitors of AI referrals, HTML pages only", () =>
    Effect.gen(function*() {
      const lines = [
        combinedLine("203.0.113.1", "/pricing/", Fixture.BROWSER_UA, "https://chatgpt.com/"),
        combinedLine("203.0.113.1", "/pricing?utm_source=chatgpt.com", Fixture.BROWSER_UA),
        combinedLine("203.0.113.2", "/pricing", Fixture.BROWSER_UA, "https://chatgpt.com/"),
        // An asset the page loads is no visit.
        combinedLine("203.0.113.2", "/logo.png", Fixture.BROWSER_UA, "https://chatgpt.com/"),
        combinedLine("203.0.113.3", "/pricing", Fixture.BROWSER_UA, "https://www.perplexity.ai/"),
        combinedLine("203.0.113.4", "/pricing", Fixture.BROWSER_UA, "https://www.google.com/")
      ]
      const { report, rollup } = yield* ingest(text(lines))
      expect(report.referralVisits).toBe(4)
      expect(rollup.referrals.map(({ visitorHashes: _, ...row }) => row)).toEqual([
        { day: "2026-10-10", platform: "chatgpt", page: "/pricing", visits: 3, visitors: 2 },
        { day: "2026-10-10", platform: "perplexity", page: "/pricing", visits: 1, visitors: 1 }
      ])
      expect(rollup.totals).toEqual([{ day: "2026-10-10", requests: 6, htmlRequests: 5 }])
    }))

  it.effect("a day's visitor hashes change with the salt, so they say nothing once it is gone", () =>
    Effect.gen(function*() {
      const bytes = text([combinedLine("203.0.113.1", "/", Fixture.BROWSER_UA, "https://claude.ai/")])
      const one = yield* ingest(bytes)
      const other = yield* ingestLog(Readable.from([bytes]), { format: "combined", siteHosts: [] }).pipe(Effect.provide(Salt.fixed("another")))
      expect(one.rollup.referrals[0]!.visitorHashes).not.toEqual(other.rollup.referrals[0]!.visitorHashes)
      const random = yield* ingestLog(Readable.from([bytes]), { format: "combined", siteHosts: [] }).pipe(Effect.provide(Salt.layer))
      expect(random.rollup.referrals[0]!.visitors).toBe(1)
    }))

  it.effect("the rollups equal a recount of the parsed lines, and hold no address", () =>
    Effect.gen(function*() {
      const lines = [...generateLines({ lines: 30_000, seed: 11, days: 3 })]
      const options = { format: "combined" as const, siteHosts: [] }
      const { report, rollup } = yield* ingest(text(lines), options, 64 * 1024)

      // The recount: every line parsed and classified on its own, then grouped with plain reduces.
      const parser = parserFor("combined")
      const parsed = lines.map((line) => parser.parse(line) as LogLine)
      const classify = classifier({
        siteHosts: [],
        match: userAgentMatcher(catalogue.agents),
        verify: verifier(listIndex(shippedSnapshots)),
        salt: { forDay: (day) => `${SECRET}|${day}` }
      }).classify
      const events: Array<Classified> = parsed.map(classify)
      const recount = recountRollup(events)
      expect(rollup).toEqual(recount)

      expect(report.parsed).toBe(lines.length)
      expect(report.agentHits).toBe(events.filter((event) => event.kind === "agent").length)
      expect(report.referralVisits).toBe(events.filter((event) => event.kind === "referral").length)
      // The mix holds every verdict.
      expect(new Set(rollup.agentHits.map((row) => row.verdict))).toEqual(new Set(["verified", "outside_list", "unverifiable", "no_ip"]))
      expect(rollup.referrals.length).toBeGreaterThan(0)

      // Every run of address characters in the rows, checked against every address of the log.
      const addresses = new Set(parsed.map((line) => line.ip!))
      expect(addresses.size).toBeGreaterThan(1000)
      const runs = JSON.stringify(rollup).split(/[^0-9a-fA-F:.]+/)
      expect(runs.filter((run) => addresses.has(run))).toEqual([])
    }))
})

/** Rollup rows counted straight from classified requests, independently of the accumulator. */
const recountRollup = (events: ReadonlyArray<Classified>): Rollup => {
  const counted = events.filter((event) => event.kind !== "filtered" && event.kind !== "own")
  const group = <E, R>(items: ReadonlyArray<E>, keyOf: (item: E) => string, make: (items: ReadonlyArray<E>) => R): Array<R> => {
    const groups = new Map<string, Array<E>>()
    for (const item of items) {
      const key = keyOf(item)
      const members = groups.get(key)
      if (members === undefined) groups.set(key, [item])
      else members.push(item)
    }
    return [...groups.values()].map(make)
  }
  const days = group(counted, (event) => ("day" in event ? event.day : ""), (items) => ({
    day: (items[0] as { day: string }).day,
    requests: items.length,
    htmlRequests: items.filter((event) => event.kind === "referral" || ("html" in event && event.html)).length
  }))
  const agents = counted.flatMap((event) => (event.kind === "agent" ? [event] : []))
  const bots = counted.flatMap((event) => (event.kind === "unknown_bot" ? [event] : []))
  const referrals = counted.flatMap((event) => (event.kind === "referral" ? [event] : []))
  return sortRollup({
    totals: days,
    agentHits: group(agents, (e) => [e.day, e.agent.id, e.verdict, e.statusClass, e.page].join(" "), (items) => ({
      day: items[0]!.day,
      agent: items[0]!.agent.id,
      verdict: items[0]!.verdict,
      statusClass: items[0]!.statusClass,
      page: items[0]!.page,
      hits: items.length
    })),
    unknownBots: group(bots, (e) => `${e.day} ${e.family}`, (items) => ({
      day: items[0]!.day,
      family: items[0]!.family,
      hits: items.length,
      sampleUserAgent: items[0]!.userAgent
    })),
    referrals: group(referrals, (e) => `${e.day} ${e.platform} ${e.page}`, (items) => {
      const visitorHashes = [...new Set(items.flatMap((e) => (e.visitor === undefined ? [] : [e.visitor])))].sort()
      return { day: items[0]!.day, platform: items[0]!.platform, page: items[0]!.page, visits: items.length, visitors: visitorHashes.length, visitorHashes }
    })
  })
}

describe("the in-memory rollup store", () => {
  it.effect("adds a source's logs together, counting a visitor of both once", () =>
    Effect.gen(function*() {
      const repo = yield* TrafficRollupsRepo
      const first = [combinedLine("203.0.113.1", "/", Fixture.BROWSER_UA, "https://claude.ai/"), combinedLine("192.0.2.10", "/a", Fixture.GPTBOT_UA)]
      const second = [combinedLine("203.0.113.1", "/", Fixture.BROWSER_UA, "https://claude.ai/"), combinedLine("203.0.113.2", "/", Fixture.BROWSER_UA, "https://claude.ai/")]
      const a = yield* ingest(text(first))
      const b = yield* ingest(text(second))
      yield* repo.record(1, a.rollup)
      yield* repo.record(1, b.rollup)
      yield* repo.record(2, b.rollup)
      const stored = yield* repo.read(1)
      expect(stored).toEqual(mergeRollups(a.rollup, b.rollup))
      expect(stored.referrals.map((row) => [row.visits, row.visitors])).toEqual([[3, 2]])
      expect(stored.totals).toEqual([{ day: "2026-10-10", requests: 4, htmlRequests: 4 }])
      // One log of both, read at once, gives the same rows.
      expect(stored).toEqual((yield* ingest(text([...first, ...second]))).rollup)
      expect((yield* repo.read(3)).totals).toEqual([])
    }).pipe(Effect.provide(TrafficRollupsRepoMemory)))
})
