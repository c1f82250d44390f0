import { describe, expect, it } from "@effect/vitest"
import { citationsFrom, citationsFromText, findUrls, withoutCredentials } from "../../../src/Detection/Citations.js"

describe("citationsFromText", () => {
  it.each<[string, string, Array<string>]>([
    ["no URL", "Acme is a CRM. See acme.com or www.acme.com/pricing.", []],
    ["bare URL", "See https://acme.com/pricing for details", ["https://acme.com/pricing"]],
    ["http and upper-case scheme", "http://a.com and HTTPS://B.COM/x", ["http://a.com", "HTTPS://B.COM/x"]],
    ["at start and end", "https://a.com/x", ["https://a.com/x"]],
    ["query and fragment kept", "Go to https://a.com/p?q=1&r=2#top now", ["https://a.com/p?q=1&r=2#top"]],
    // Trailing sentence punctuation is not part of a bare URL.
    ["period", "Read https://a.com/guide.", ["https://a.com/guide"]],
    ["comma", "https://a.com/x, https://b.com/y", ["https://a.com/x", "https://b.com/y"]],
    ["semicolon and colon", "https://a.com; https://b.com:", ["https://a.com", "https://b.com"]],
    ["exclamation and question", "Wow https://a.com! Really https://b.com/?", ["https://a.com", "https://b.com/"]],
    ["ellipsis", "see https://a.com/x... and https://b.com…", ["https://a.com/x", "https://b.com"]],
    ["several trailing marks", "(https://a.com/x).\"", ["https://a.com/x"]],
    ["inner dots kept", "https://a.com/v1.2/file.tar.gz.", ["https://a.com/v1.2/file.tar.gz"]],
    ["port", "http://localhost:8080/x.", ["http://localhost:8080/x"]],
    // Brackets: unbalanced closers dropped, balanced ones kept.
    ["in parentheses", "Acme (https://acme.com/pricing) is cheap", ["https://acme.com/pricing"]],
    [
      "wikipedia parentheses",
      "See https://en.wikipedia.org/wiki/Mercury_(planet).",
      ["https://en.wikipedia.org/wiki/Mercury_(planet)"]
    ],
    [
      "wikipedia parentheses inside parentheses",
      "(see https://en.wikipedia.org/wiki/Acme_(disambiguation))",
      ["https://en.wikipedia.org/wiki/Acme_(disambiguation)"]
    ],
    ["square brackets", "[https://a.com/x] and [1] https://b.com/[y]", ["https://a.com/x", "https://b.com/[y]"]],
    // Quotes and markup around bare URLs.
    ["double quotes", "\"https://a.com/x\" said", ["https://a.com/x"]],
    ["single quotes", "'https://a.com/x' said", ["https://a.com/x"]],
    ["apostrophe inside", "https://a.com/O'Reilly_book is", ["https://a.com/O'Reilly_book"]],
    ["typographic quotes", "“https://a.com/x” and «https://b.com/y»", ["https://a.com/x", "https://b.com/y"]],
    ["bold", "**https://a.com/x** and _https://b.com_", ["https://a.com/x", "https://b.com"]],
    ["inline code", "Run `curl https://a.com/x`", ["https://a.com/x"]],
    ["html attribute", "<a href=\"https://a.com/x\">Acme</a>", ["https://a.com/x"]],
    ["newline ends", "https://a.com/x\nhttps://b.com/y", ["https://a.com/x", "https://b.com/y"]],
    // Markdown.
    ["markdown link", "Try [Acme](https://acme.com/pricing) today", ["https://acme.com/pricing"]],
    ["markdown link with title", "[Acme](https://x.y/z \"Acme pricing\")", ["https://x.y/z"]],
    ["title in single quotes and parens", "[a](https://x.y/1 'T') [b](https://x.y/2 (T))", ["https://x.y/1", "https://x.y/2"]],
    [
      "markdown link with parentheses",
      "[Acme](https://en.wikipedia.org/wiki/Acme_(disambiguation)).",
      ["https://en.wikipedia.org/wiki/Acme_(disambiguation)"]
    ],
    ["markdown link with escaped paren", "[a](https://x.y/a\\)b)", ["https://x.y/a)b"]],
    ["angle-bracket target", "[a](<https://x.y/a b>)", ["https://x.y/a b"]],
    ["label that is the URL counts once", "[https://acme.com](https://acme.com)", ["https://acme.com"]],
    ["label URL differing from target", "[https://label.com](https://target.com)", ["https://target.com"]],
    ["nested brackets in label", "[Acme [beta]](https://acme.com/beta)", ["https://acme.com/beta"]],
    ["image", "![logo](https://acme.com/logo.png)", ["https://acme.com/logo.png"]],
    ["badge: image inside link", "[![b](https://img.io/b.svg)](https://acme.com)", ["https://acme.com"]],
    ["relative target, URL label", "[https://acme.com](#ref) and [docs](/docs)", ["https://acme.com"]],
    ["footnote-style link", "Acme leads the market.[1](https://acme.com/report)", ["https://acme.com/report"]],
    ["reference definition", "[1]: https://acme.com/a \"Title\"", ["https://acme.com/a"]],
    ["space in raw target: not a link", "[a](https://x.y/a b)", ["https://x.y/a"]],
    ["unclosed label", "[oops https://a.com/x", ["https://a.com/x"]],
    ["autolink", "<https://a.com/x?y=1>.", ["https://a.com/x?y=1"]],
    ["unclosed autolink", "<https://a.com/x", ["https://a.com/x"]],
    // Not http(s), or not a URL at all.
    ["other schemes", "ftp://a.com mailto:x@y.z git+https://g.com/r xhttps://h.com", []],
    ["scheme only", "https:// and http://", []],
    ["www without scheme", "www.acme.com/pricing", []],
    // CJK punctuation ends a URL; CJK path characters stay.
    ["CJK", "请访问https://acme.cn/产品。谢谢（https://b.cn/x）", ["https://acme.cn/产品", "https://b.cn/x"]],
    // Order of appearance, duplicates included.
    [
      "order and duplicates",
      "https://b.com then [x](https://a.com) then <https://b.com> and https://a.com.",
      ["https://b.com", "https://a.com", "https://b.com", "https://a.com"]
    ]
  ])("%s", (_, text, expected) => {
    expect(citationsFromText(text)).toEqual(expected)
  })

  it("locates markdown targets, autolinks and bare URLs", () => {
    const text = "[A](https://a.com) <https://b.com> https://c.com."
    const spans = findUrls(text)
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(["https://a.com", "https://b.com", "https://c.com"])
  })

  it("stays fast on a flood of unclosed brackets", () => {
    const text = "[".repeat(50_000) + " https://a.com"
    const started = Date.now()
    expect(citationsFromText(text)).toEqual(["https://a.com"])
    expect(Date.now() - started).toBeLessThan(2_000)
  })
})

describe("citationsFrom", () => {
  it("uses the given citations in order, each occurrence counted", () => {
    expect(
      citationsFrom({
        text: "ignored https://text.com",
        citations: ["https://b.com/x?utm_source=ai", "https://www.a.com/", "https://b.com/x"]
      })
    ).toEqual([
      { position: 1, raw: "https://b.com/x?utm_source=ai", url: "https://b.com/x", domain: "b.com" },
      { position: 2, raw: "https://www.a.com/", url: "https://www.a.com/", domain: "a.com" },
      { position: 3, raw: "https://b.com/x", url: "https://b.com/x", domain: "b.com" }
    ])
  })

  it("an empty citations list is authoritative", () => {
    expect(citationsFrom({ text: "see https://a.com", citations: [] })).toEqual([])
  })

  it.each([undefined, null])("falls back to the text when citations is %s", (citations) => {
    expect(citationsFrom({ text: "[A](https://a.com#x) and https://B.com.", citations })).toEqual([
      { position: 1, raw: "https://a.com#x", url: "https://a.com/", domain: "a.com" },
      { position: 2, raw: "https://B.com", url: "https://b.com/", domain: "b.com" }
    ])
  })

  it("falls back to the text when citations is absent", () => {
    expect(citationsFrom({ text: "https://a.com https://a.com" }).map((c) => c.position)).toEqual([1, 2])
  })

  it("skips entries that do not normalize, numbering the kept ones without gaps", () => {
    expect(
      citationsFrom({ text: "", citations: ["not a url", "https://a.com", "ftp://b.com", "", "https://c.com/"] })
    ).toEqual([
      { position: 1, raw: "https://a.com", url: "https://a.com/", domain: "a.com" },
      { position: 2, raw: "https://c.com/", url: "https://c.com/", domain: "c.com" }
    ])
  })
})

describe("credentials in cited URLs", () => {
  it("are dropped from the URL kept as given, as from the normalized one", () => {
    const [cited] = citationsFrom({ citations: ["https://user:secret@Example.com/a?utm_source=x#top"], text: "" })
    expect(cited!.raw).toBe("https://Example.com/a?utm_source=x#top")
    expect(cited!.url).toBe("https://example.com/a")
    expect(withoutCredentials("http://a@b:c@host.com/p@q")).toBe("http://host.com/p@q")
    expect(withoutCredentials("https://host.com/path@x")).toBe("https://host.com/path@x")
    expect(withoutCredentials("http://u:p@host.com\\\\path")).toBe("http://host.com\\\\path")
  })
})
