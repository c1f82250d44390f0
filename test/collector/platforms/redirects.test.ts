import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Option } from "effect"
import { makeRedirectResolver, titleUrl } from "../../../src/Collector/Platforms/GroundingRedirects.ts"
import { fakeServer, type Route } from "./FakeServer.ts"
import { HttpClientLive } from "./support.ts"

/**
 * Gemini's grounding links resolved to the pages' URLs (GroundingRedirects.ts): by reading the redirect,
 * never by fetching the page, and only ever asking the redirect host.
 */

/** A publisher: any request it gets is a page fetched, which must never happen. */
const publisher = fakeServer([{ status: 200, text: "<html>the page</html>" }])

/** The redirect host: `/r/<id>` answers with `locations[id]`'s redirect (or the status given). */
const redirectHost = (locations: Record<string, string | number>) => {
  const route: Route = (request) => {
    const id = /^\/r\/(\w+)$/.exec(request.url)?.[1]
    const target = id === undefined ? undefined : locations[id]
    if (target === undefined) return { status: 404, text: "" }
    return typeof target === "number" ? { status: target, text: "" } : { status: 302, headers: { location: target }, text: "" }
  }
  return fakeServer([{ status: 404, text: "" }], route)
}

const resolve = (origin: string, uri: string, title?: string) =>
  Effect.flatMap(makeRedirectResolver({ origin }), (resolver) => resolver.resolve(uri, title))

/** Both clients: fetch (which follows redirects unless told not to) and Node's undici (the server's). */
const clients = [
  ["fetch", HttpClientLive],
  ["undici", Layer.merge(NodeHttpClient.layerUndici, Logger.minimumLogLevel(LogLevel.None))]
] as const

describe.each(clients)("grounding redirects (%s)", (_, HttpClientLive) => {
  it.scopedLive("a link resolves to its redirect's Location, asked with HEAD; the page itself is never requested", () =>
    Effect.gen(function*() {
      const page = yield* publisher
      const google = yield* redirectHost({ AAA: `${page.baseUrl}/crm?utm=x` })
      const resolved = yield* resolve(google.baseUrl, `${google.baseUrl}/r/AAA`, "hubspot.com")
      expect(resolved).toEqual(Option.some(`${page.baseUrl}/crm?utm=x`))
      expect(google.requests.map((request) => [request.method, request.url])).toEqual([["HEAD", "/r/AAA"]])
      expect(page.requests).toHaveLength(0)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a redirect to the redirect host itself is followed (relative or absolute), never a redirect elsewhere", () =>
    Effect.gen(function*() {
      const page = yield* publisher
      const google = yield* redirectHost({ AAA: "/r/BBB", BBB: "/r/CCC", CCC: `${page.baseUrl}/final` })
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/AAA`)).toEqual(Option.some(`${page.baseUrl}/final`))
      expect(google.requests.map((request) => request.url)).toEqual(["/r/AAA", "/r/BBB", "/r/CCC"])
      expect(page.requests).toHaveLength(0)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a redirect loop falls back to the chunk's title, which holds the domain", () =>
    Effect.gen(function*() {
      const google = yield* redirectHost({ AAA: "/r/BBB", BBB: "/r/AAA" })
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/AAA`, "hubspot.com")).toEqual(Option.some("https://hubspot.com/"))
      // Each link asked once: the loop is seen, not run.
      expect(google.requests.map((request) => request.url)).toEqual(["/r/AAA", "/r/BBB"])
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("an unreachable redirect host, an error or no redirect at all fall back to the title; without one, nothing", () =>
    Effect.gen(function*() {
      // Nothing listens on port 1.
      expect(yield* resolve("http://127.0.0.1:1", "http://127.0.0.1:1/r/AAA", "pipedrive.com")).toEqual(Option.some("https://pipedrive.com/"))
      const google = yield* redirectHost({ AAA: 500, BBB: 200, CCC: "javascript:alert(1)" })
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/AAA`, "zoho.com")).toEqual(Option.some("https://zoho.com/"))
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/BBB`, "Zoho.com ")).toEqual(Option.some("https://zoho.com/"))
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/CCC`, "zoho.com")).toEqual(Option.some("https://zoho.com/"))
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/AAA`, "Zoho CRM – pricing")).toEqual(Option.none())
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/AAA`)).toEqual(Option.none())
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a link that is not on the redirect host is taken as it is, without any request", () =>
    Effect.gen(function*() {
      const page = yield* publisher
      const google = yield* redirectHost({})
      expect(yield* resolve(google.baseUrl, `${page.baseUrl}/direct`, "x.com")).toEqual(Option.some(`${page.baseUrl}/direct`))
      expect(google.requests).toHaveLength(0)
      expect(page.requests).toHaveLength(0)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a resolved link is remembered: asked once however often it is cited", () =>
    Effect.gen(function*() {
      const google = yield* redirectHost({ AAA: "https://www.hubspot.com/crm" })
      const resolver = yield* makeRedirectResolver({ origin: google.baseUrl })
      for (const _ of [1, 2, 3]) {
        expect(yield* resolver.resolve(`${google.baseUrl}/r/AAA`, "hubspot.com")).toEqual(Option.some("https://www.hubspot.com/crm"))
      }
      expect(google.requests).toHaveLength(1)
    }).pipe(Effect.provide(HttpClientLive)))

  it.scopedLive("a redirect host that refuses HEAD is asked with GET, still without following", () =>
    Effect.gen(function*() {
      const page = yield* publisher
      const google = yield* fakeServer([{ status: 404, text: "" }], (request) =>
        request.method === "HEAD" ? { status: 405, text: "" } : { status: 302, headers: { location: `${page.baseUrl}/p` }, text: "redirecting" })
      expect(yield* resolve(google.baseUrl, `${google.baseUrl}/r/AAA`)).toEqual(Option.some(`${page.baseUrl}/p`))
      expect(google.requests.map((request) => request.method)).toEqual(["HEAD", "GET"])
      expect(page.requests).toHaveLength(0)
    }).pipe(Effect.provide(HttpClientLive)))

  it("a title stands for its domain only when it is one", () => {
    expect(titleUrl("hubspot.com")).toEqual(Option.some("https://hubspot.com/"))
    expect(titleUrl("en.wikipedia.org")).toEqual(Option.some("https://en.wikipedia.org/"))
    expect(titleUrl("HubSpot CRM")).toEqual(Option.none())
    expect(titleUrl("localhost")).toEqual(Option.none())
    expect(titleUrl(undefined)).toEqual(Option.none())
  })
})
