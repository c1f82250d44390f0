import { describe, expect, it } from "@effect/vitest"
import { normalizeUrl } from "../../../src/Detection/Urls.ts"
import { pageKey, pageKeyOfCitation } from "../../../src/Traffic/PageKey.ts"

describe("page keys", () => {
  it("make a citation URL and its log path meet", () => {
    expect(pageKey("https://www.example.com/pricing/")).toBe("/pricing")
    expect(pageKey("/pricing")).toBe("/pricing")
    expect(pageKeyOfCitation("https://www.example.com/pricing/", ["example.com"])).toBe("/pricing")
  })

  it.each([
    ["/", "/"],
    ["", "/"],
    ["https://example.com", "/"],
    ["https://example.com/?utm_source=chatgpt.com", "/"],
    ["/pricing?utm_source=chatgpt.com", "/pricing"],
    ["/pricing#plans", "/pricing"],
    ["https://example.com/docs/a/../b/", "/docs/b"],
    ["//pricing//plans/", "/pricing/plans"],
    ["/blog/index.html", "/blog"],
    ["/index.php", "/"],
    ["/%7Euser/%41bc", "/~user/Abc"],
    ["/caf%c3%a9", "/caf%C3%A9"],
    ["/café", "/caf%C3%A9"],
    ["/a b", "/a%20b"],
    // Case is kept: the server may serve two pages.
    ["/Pricing", "/Pricing"]
  ])("%s -> %s", (input, key) => {
    expect(pageKey(input)).toBe(key)
  })

  it("is the same whether a citation's URL was normalized or not, and leaves the normalization alone", () => {
    const cited = "https://WWW.Example.com/pricing/?utm_source=chatgpt.com#top"
    const normalized = normalizeUrl(cited)!
    // The stored URL keeps its trailing slash and www: the page key sits beside it.
    expect(normalized.url).toBe("https://www.example.com/pricing/")
    expect(pageKey(normalized.url)).toBe(pageKey(cited))
    expect(pageKey(cited)).toBe("/pricing")
  })

  it("of a citation: only for the site's hosts, www or not", () => {
    expect(pageKeyOfCitation("https://example.com/a", ["www.example.com"])).toBe("/a")
    expect(pageKeyOfCitation("https://www.example.com/a", ["EXAMPLE.com"])).toBe("/a")
    expect(pageKeyOfCitation("https://blog.example.com/a", ["example.com"])).toBeUndefined()
    expect(pageKeyOfCitation("https://example.org/a", ["example.com"])).toBeUndefined()
    expect(pageKeyOfCitation("not a url", ["example.com"])).toBeUndefined()
  })
})
