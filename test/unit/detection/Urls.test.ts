import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { domainOfHost, isTrackingParameter, normalizeUrl, stripTrackingParameters } from "../../../src/Detection/Urls.js"

describe("normalizeUrl", () => {
  it.each([
    // docs/api.md: lower-case scheme and host, default port and fragment dropped,
    // utm_*, gclid, fbclid dropped, empty path becomes `/`.
    ["HTTPS://Example.COM/Path", "https://example.com/Path", "example.com"],
    ["http://example.com:80/a", "http://example.com/a", "example.com"],
    ["https://example.com:443/a", "https://example.com/a", "example.com"],
    ["https://example.com:8443/a", "https://example.com:8443/a", "example.com"],
    ["http://example.com:443/", "http://example.com:443/", "example.com"],
    ["https://example.com/a#section-2", "https://example.com/a", "example.com"],
    ["https://example.com", "https://example.com/", "example.com"],
    ["https://example.com?x=1", "https://example.com/?x=1", "example.com"],
    ["https://example.com/a?utm_source=chatgpt.com", "https://example.com/a", "example.com"],
    [
      "https://example.com/a?utm_source=x&utm_medium=y&utm_campaign=z&utm_term=t&utm_content=c&utm_id=1",
      "https://example.com/a",
      "example.com"
    ],
    ["https://example.com/a?gclid=abc&fbclid=def", "https://example.com/a", "example.com"],
    ["https://example.com/a?b=2&utm_source=x&a=1&gclid=z&c=3", "https://example.com/a?b=2&a=1&c=3", "example.com"],
    ["https://example.com/a?UTM_Source=x&GCLID=1&FbClid=2&q=1", "https://example.com/a?q=1", "example.com"],
    ["https://example.com/a?%75tm_source=x&q=1", "https://example.com/a?q=1", "example.com"],
    ["https://example.com/a?utm=1&utmsource=2&my_utm_x=3", "https://example.com/a?utm=1&utmsource=2&my_utm_x=3", "example.com"],
    ["https://example.com/a?gclid_x=1&xgclid=2", "https://example.com/a?gclid_x=1&xgclid=2", "example.com"],
    ["https://example.com/a?utm_source=x#top", "https://example.com/a", "example.com"],
    ["https://example.com/?", "https://example.com/", "example.com"],
    ["https://example.com/?#", "https://example.com/", "example.com"],
    ["https://example.com/a?q=1&&r=2&", "https://example.com/a?q=1&r=2", "example.com"],
    // Values and their encoding are kept as written (no URLSearchParams re-serialization).
    ["https://example.com/s?q=a+b&r=%20c&t=~x&u=", "https://example.com/s?q=a+b&r=%20c&t=~x&u=", "example.com"],
    ["https://example.com/s?q=1&q=2&Q=3", "https://example.com/s?q=1&q=2&Q=3", "example.com"],
    ["https://example.com/s?flag", "https://example.com/s?flag", "example.com"],
    // Path: case kept, trailing slash kept, dot segments resolved, spaces encoded (URL's work).
    ["https://example.com/A/B/", "https://example.com/A/B/", "example.com"],
    ["https://example.com/a/./b/../c", "https://example.com/a/c", "example.com"],
    ["https://example.com/a b", "https://example.com/a%20b", "example.com"],
    ["  https://example.com/a  ", "https://example.com/a", "example.com"],
    // www: stripped from the domain only, once, and never down to a bare TLD.
    ["https://www.example.com/", "https://www.example.com/", "example.com"],
    ["https://WWW.Example.com/", "https://www.example.com/", "example.com"],
    ["https://www.www.example.com/", "https://www.www.example.com/", "www.example.com"],
    ["https://www2.example.com/", "https://www2.example.com/", "www2.example.com"],
    ["https://blog.example.com/", "https://blog.example.com/", "blog.example.com"],
    ["https://wwwexample.com/", "https://wwwexample.com/", "wwwexample.com"],
    ["https://www.com/", "https://www.com/", "www.com"],
    // User info dropped.
    ["https://user:secret@example.com/a", "https://example.com/a", "example.com"],
    ["https://user@www.example.com/", "https://www.example.com/", "example.com"],
    // Trailing dots of the host dropped.
    ["https://example.com./a", "https://example.com/a", "example.com"],
    ["https://www.example.com../", "https://www.example.com/", "example.com"],
    // IDN: punycode, as URL gives it.
    ["https://Bücher.de/x", "https://xn--bcher-kva.de/x", "xn--bcher-kva.de"],
    ["https://www.münchen.de", "https://www.xn--mnchen-3ya.de/", "xn--mnchen-3ya.de"],
    // IP hosts.
    ["http://[2001:DB8::1]:80/x", "http://[2001:db8::1]/x", "[2001:db8::1]"],
    ["http://[::1]:8080/", "http://[::1]:8080/", "[::1]"],
    ["http://192.168.0.1:80/", "http://192.168.0.1/", "192.168.0.1"],
    ["http://1.2.3.4./", "http://1.2.3.4/", "1.2.3.4"],
    // WHATWG URL leniencies for special schemes.
    ["http:example.com/a", "http://example.com/a", "example.com"],
    ["https:\\\\example.com\\a", "https://example.com/a", "example.com"]
  ])("%s -> %s (%s)", (raw, url, domain) => {
    expect(normalizeUrl(raw)).toEqual({ url, domain })
  })

  it.each([
    "",
    "   ",
    "example.com",
    "www.example.com/a",
    "/relative/path",
    "//example.com/a",
    "ftp://example.com/a",
    "mailto:someone@example.com",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "data:text/plain,hi",
    "https://",
    "http://",
    "https://exa mple.com/",
    "https://[::1/",
    "https://./",
    "not a url"
  ])("rejects %j", (raw) => {
    expect(normalizeUrl(raw)).toBeUndefined()
  })

  it("is idempotent on the spec's examples", () => {
    const once = normalizeUrl("HTTP://WWW.Example.COM:80/?utm_source=x&b=1#frag")!
    expect(once).toEqual({ url: "http://www.example.com/?b=1", domain: "example.com" })
    expect(normalizeUrl(once.url)).toEqual(once)
  })

  const trackingKey = FastCheck.constantFrom("utm_source", "UTM_medium", "utm_", "gclid", "fbclid")
  const otherKey = FastCheck.constantFrom("q", "page", "ref", "id", "utm", "s")
  const value = FastCheck.oneof(FastCheck.webSegment(), FastCheck.constantFrom("", "a+b", "%20", "%zz", "?x", "é"))
  const query = FastCheck.array(
    FastCheck.tuple(FastCheck.oneof(trackingKey, otherKey), value).map(([k, v]) => `${k}=${v}`),
    { maxLength: 5 }
  ).map((pieces) => (pieces.length === 0 ? "" : `?${pieces.join("&")}`))
  const url = FastCheck.tuple(
    FastCheck.webUrl({ withFragments: true, withQueryParameters: true }),
    query,
    FastCheck.constantFrom("", "#frag", "#")
  ).map(([base, q, hash]) => base.replace(/[?#].*$/, "") + q + hash)

  it("is idempotent and removes every tracking parameter (property)", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.oneof(url, FastCheck.webUrl({ withFragments: true, withQueryParameters: true })), (raw) => {
        const once = normalizeUrl(raw)
        if (once === undefined) return
        expect(normalizeUrl(once.url)).toEqual(once)
        expect(once.url).not.toContain("#")
        expect(once.url).not.toMatch(/[?&](utm_[^=&]*|gclid|fbclid)(=|&|$)/i)
        expect(once.domain).toBe(once.domain.toLowerCase())
        expect(once.domain.startsWith("www.") && once.domain.split(".").length > 2).toBe(false)
      }),
      { numRuns: 500 }
    )
  })
})

describe("stripTrackingParameters", () => {
  it.each([
    ["", ""],
    ["a=1", "a=1"],
    ["utm_source=x", ""],
    ["a=1&utm_source=x&b=2", "a=1&b=2"],
    ["utm+source=1", "utm+source=1"],
    ["a=%zz&gclid=1", "a=%zz"],
    ["=x&a", "=x&a"]
  ])("%j -> %j", (query, expected) => {
    expect(stripTrackingParameters(query)).toBe(expected)
  })

  it.each([
    ["utm_source", true],
    ["UTM_CAMPAIGN", true],
    ["utm_", true],
    ["gclid", true],
    ["FBCLID", true],
    ["utm", false],
    ["gclid2", false],
    ["msclkid", false]
  ])("isTrackingParameter(%j) = %s", (name, expected) => {
    expect(isTrackingParameter(name)).toBe(expected)
  })
})

describe("domainOfHost", () => {
  it.each([
    ["example.com", "example.com"],
    ["www.example.com", "example.com"],
    ["WWW.EXAMPLE.COM", "example.com"],
    ["www.www.example.com", "www.example.com"],
    ["www.com", "www.com"],
    ["www", "www"],
    ["[::1]", "[::1]"]
  ])("%s -> %s", (host, domain) => {
    expect(domainOfHost(host)).toBe(domain)
  })
})
