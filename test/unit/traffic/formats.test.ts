import { describe, expect, it } from "@effect/vitest"
import { detectFormat, type LogFormat, parserFor } from "../../../src/Traffic/Formats/Formats.ts"
import type { FieldMap } from "../../../src/Traffic/Formats/Ndjson.ts"
import { cleanPath, isHtml, type LineResult, type LogLine } from "../../../src/Traffic/LogLine.ts"
import * as Fixture from "./fixtures.ts"

/** Parses lines with a new parser and returns every result. */
const parseAll = (format: LogFormat, lines: ReadonlyArray<string>, fieldMap?: FieldMap): Array<LineResult> => {
  const parser = parserFor(format, fieldMap)
  return lines.map((line) => parser.parse(line))
}

const lastRequest = (format: LogFormat, lines: ReadonlyArray<string>, fieldMap?: FieldMap): LogLine => {
  const results = parseAll(format, lines, fieldMap)
  const line = results[results.length - 1]
  if (line === undefined || line === "skip") throw new Error(`not a request: ${String(line)}`)
  return line
}

/** What every format reads from the fixture's request; the fields a format does not record are overridden. */
const expected: LogLine = {
  time: Fixture.TIME,
  method: "GET",
  host: "www.example.com",
  // The session parameter is dropped, utm_source kept.
  path: "/pricing?utm_source=chatgpt.com",
  status: 200,
  bytes: 5120,
  userAgent: Fixture.GPTBOT_UA,
  ip: "192.0.2.10",
  referer: "https://chatgpt.com/",
  contentType: "text/html"
}

const cases: ReadonlyArray<{ format: LogFormat; lines: ReadonlyArray<string>; fieldMap?: FieldMap; line: LogLine }> = [
  { format: "combined", lines: [Fixture.combined], line: { ...expected, host: undefined, contentType: undefined } },
  {
    format: "common",
    lines: [Fixture.common],
    line: { ...expected, host: undefined, userAgent: "", referer: undefined, contentType: undefined }
  },
  { format: "cloudfront", lines: Fixture.cloudfront, line: { ...expected, contentType: "text/html; charset=utf-8" } },
  { format: "alb", lines: [Fixture.alb], line: { ...expected, referer: undefined, contentType: undefined } },
  { format: "cloudflare_logpush", lines: [Fixture.cloudflareLogpush], line: expected },
  { format: "vercel", lines: [Fixture.vercel], line: { ...expected, contentType: undefined } },
  { format: "ndjson", lines: [Fixture.ndjson], fieldMap: Fixture.ndjsonFieldMap, line: expected }
]

describe("log formats", () => {
  it.each(cases)("$format: reads the fixture request", ({ format, lines, fieldMap, line }) => {
    expect(lastRequest(format, lines, fieldMap)).toEqual(line)
  })

  it.each(cases)("$format: auto detects it", ({ format, lines, fieldMap, line }) => {
    // `common` lines are a prefix of `combined` ones: auto reads them the same way.
    expect(detectFormat(lines[0]!)).toBe(format)
    expect(lastRequest("auto", lines, fieldMap)).toEqual(line)
  })

  it.each(cases.filter((c) => c.format !== "common"))("$format: a line cut short is unparsed, not a request", ({ format, lines, fieldMap }) => {
    const last = lines[lines.length - 1]!
    const cut = last.slice(0, Math.floor(last.length * 0.6))
    expect(parseAll(format, [...lines.slice(0, -1), cut], fieldMap).at(-1)).toBeUndefined()
  })

  it("auto: plain NDJSON without a field map is unparsed", () => {
    expect(parseAll("auto", [Fixture.ndjson])).toEqual([undefined])
  })

  it("ndjson needs a field map", () => {
    expect(() => parserFor("ndjson")).toThrow("field map")
  })

  it("blank lines and W3C headers are not requests", () => {
    expect(parseAll("combined", [""])).toEqual(["skip"])
    expect(parseAll("cloudfront", ["#Version: 1.0", ""])).toEqual(["skip", "skip"])
  })

  it("combined: escaped quotes (Apache's \\\" and nginx's \\x22), a time zone, a malformed request line", () => {
    const apache = `198.51.100.4 - - [01/Jan/2026:00:30:00 +0100] "GET /a HTTP/1.1" 404 - "-" "Bot \\"quoted\\" v1"`
    const nginx = `198.51.100.4 - - [01/Jan/2026:00:30:00 +0100] "GET /a HTTP/1.1" 404 - "-" "Bot \\x22quoted\\x22 v1"`
    for (const line of [apache, nginx]) {
      const request = lastRequest("combined", [line])
      expect(request.userAgent).toBe(`Bot "quoted" v1`)
      expect(request.time).toBe(Date.UTC(2025, 11, 31, 23, 30, 0))
      expect(request.bytes).toBe(0)
      expect(request.referer).toBeUndefined()
    }
    const garbage = `198.51.100.4 - - [01/Jan/2026:00:30:00 +0000] "\\x16\\x03\\x01" 400 150 "-" "-"`
    expect(lastRequest("combined", [garbage])).toMatchObject({ method: "", path: "", status: 400 })
  })

  it("cloudfront: follows the #Fields line, whatever the order and the columns", () => {
    const lines = [
      "#Fields: date time cs(User-Agent) sc-status cs-uri-stem c-ip cs-uri-query",
      `2026-10-10\t13:55:36\t${Fixture.GPTBOT_UA.replace(/ /g, "%20")}\t304\t/docs/\t2001:db8::7\t-`
    ]
    expect(lastRequest("cloudfront", lines)).toEqual({
      time: Fixture.TIME,
      method: "",
      host: undefined,
      path: "/docs/",
      status: 304,
      bytes: 0,
      userAgent: Fixture.GPTBOT_UA,
      ip: "2001:db8::7",
      referer: undefined,
      contentType: undefined
    })
  })

  it("alb: an IPv6 client, a request with no host in its line", () => {
    const line = Fixture.alb.replace("192.0.2.10:46532", "2001:db8::7:46532").replace("https://www.example.com:443/pricing", "/pricing")
    expect(lastRequest("alb", [line])).toMatchObject({ ip: "2001:db8::7", host: "www.example.com", path: "/pricing?utm_source=chatgpt.com" })
  })

  it("cloudflare_logpush: Unix timestamps in seconds or nanoseconds; the probe is not a request", () => {
    const record = JSON.parse(Fixture.cloudflareLogpush) as Record<string, unknown>
    for (const stamp of [Fixture.TIME / 1000, Fixture.TIME * 1e6]) {
      expect(lastRequest("cloudflare_logpush", [JSON.stringify({ ...record, EdgeStartTimestamp: stamp })]).time).toBe(Fixture.TIME)
    }
    expect(parseAll("cloudflare_logpush", [`{"content":"tests"}`])).toEqual(["skip"])
    expect(parseAll("cloudflare_logpush", [`{"ClientIP":"192.0.2.1"}`])).toEqual([undefined])
  })

  it("vercel: build logs and background revalidations are not requests", () => {
    const build = JSON.stringify({ id: "2", deploymentId: "dpl_1", source: "build", host: "x.vercel.app", timestamp: Fixture.TIME, message: "Compiling" })
    const record = JSON.parse(Fixture.vercel) as { proxy: Record<string, unknown> }
    const revalidation = JSON.stringify({ ...record, proxy: { ...record.proxy, statusCode: -1 } })
    expect(parseAll("vercel", [build, revalidation])).toEqual(["skip", "skip"])
  })
})

describe("cleanPath", () => {
  it.each([
    ["/pricing", "/pricing"],
    ["/pricing?", "/pricing"],
    ["/pricing?email=a%40b.com&token=x", "/pricing"],
    ["/p?a=1&utm_source=chatgpt.com&b=2&UTM_Medium=ai", "/p?utm_source=chatgpt.com&UTM_Medium=ai"],
    ["/p#top", "/p"],
    ["https://www.example.com/p?x=1", "/p"],
    ["https://www.example.com", "/"]
  ])("%s -> %s", (target, path) => {
    expect(cleanPath(target)).toBe(path)
  })
})

describe("isHtml", () => {
  it.each([
    [{ path: "/pricing", contentType: undefined }, true],
    [{ path: "/", contentType: undefined }, true],
    [{ path: "/index.php?utm_source=x", contentType: undefined }, true],
    [{ path: "/app.js", contentType: undefined }, false],
    [{ path: "/logo.png", contentType: undefined }, false],
    // The content type wins over the path when the log records it.
    [{ path: "/feed", contentType: "application/rss+xml" }, false],
    [{ path: "/page.png", contentType: "text/html; charset=utf-8" }, true]
  ])("%o -> %s", (line, html) => {
    expect(isHtml(line)).toBe(html)
  })
})
