import { describe, expect, it } from "vitest"
import { percentage as apiPercentage, wilson as apiWilson } from "../../src/Analytics/Statistics.ts"
import { abilities } from "../../src/Domain/Ability.ts"
import { abilitiesInWords, abilityInWords } from "../../web/src/abilities.ts"
import { queryString } from "../../web/src/api/client.ts"
import { previousPeriod, readFilters, readInterval } from "../../web/src/filters.ts"
import { highlight } from "../../web/src/highlight.ts"
import { plainText, safeUrl } from "../../web/src/markdown.ts"
import { isSmallSample, percentage, SMALL_SAMPLE, wilson } from "../../web/src/stats.ts"

/** The dashboard's pure pieces: how an answer's text is split for drawing, how queries are written. */
describe("answer highlighting", () => {
  const brands = [
    { id: 1, names: ["Northwind CRM", "Northwind"], domains: ["northwind-crm.example"] },
    { id: 2, names: ["HubSpot", "HubSpot CRM"], domains: ["hubspot.com"] }
  ]

  it("marks names and aliases as whole words, whatever their case, the longest first", () => {
    expect(highlight("Try hubspot crm or NORTHWIND; not Northwinds or xHubSpot.", brands, [])).toEqual([
      { kind: "text", text: "Try " },
      { kind: "brand", text: "hubspot crm", brand: 2 },
      { kind: "text", text: " or " },
      { kind: "brand", text: "NORTHWIND", brand: 1 },
      { kind: "text", text: "; not Northwinds or xHubSpot." }
    ])
  })

  it("numbers links to the answer's citations and marks brand domains inside them", () => {
    const pieces = highlight("See [the CRM](https://www.hubspot.com/crm) and https://northwind-crm.example/pricing.", brands, [
      "https://northwind-crm.example/pricing",
      "https://www.hubspot.com/crm"
    ])
    expect(pieces).toEqual([
      { kind: "text", text: "See " },
      { kind: "link", text: "the CRM", url: "https://www.hubspot.com/crm", citation: 2, inner: [{ kind: "text", text: "the CRM" }] },
      { kind: "text", text: " and " },
      {
        kind: "link",
        text: "https://northwind-crm.example/pricing",
        url: "https://northwind-crm.example/pricing",
        citation: 1,
        inner: [{ kind: "text", text: "https://" }, { kind: "brand", text: "northwind-crm.example", brand: 1 }, { kind: "text", text: "/pricing" }]
      },
      { kind: "text", text: "." }
    ])
  })

  it("turns [n] into a citation marker only when the answer has an n-th citation", () => {
    expect(highlight("Good [1]. Odd [3].", [], ["https://a.example/", "https://b.example/"])).toEqual([
      { kind: "text", text: "Good " },
      { kind: "marker", text: "[1]", citation: 1 },
      { kind: "text", text: ". Odd [3]." }
    ])
  })

  it("leaves a link that is not a citation unnumbered, and text without brands whole", () => {
    expect(highlight("https://other.example/x", [], [])).toEqual([
      { kind: "link", text: "https://other.example/x", url: "https://other.example/x", citation: undefined, inner: [{ kind: "text", text: "https://other.example/x" }] }
    ])
    expect(highlight("", brands, [])).toEqual([])
  })

  it("treats brand names as text, not patterns", () => {
    expect(highlight("Use A+ (beta) today", [{ id: 3, names: ["A+ (beta)"], domains: [] }], [])).toEqual([
      { kind: "text", text: "Use " },
      { kind: "brand", text: "A+ (beta)", brand: 3 },
      { kind: "text", text: " today" }
    ])
  })
})

describe("API query strings", () => {
  it("writes arrays as name[] repeated, and leaves out empty values", () => {
    expect(queryString({ start_date: "2026-11-01", platforms: ["chatgpt", "perplexity"], tags: [], monitors: [3], page: 2, sort: undefined, x: null, y: "" }))
      .toBe("?start_date=2026-11-01&platforms%5B%5D=chatgpt&platforms%5B%5D=perplexity&monitors%5B%5D=3&page=2")
    expect(queryString({})).toBe("")
  })
})

describe("the trend's 95% bands", () => {
  it("are the API's Wilson intervals, to the bit, for every count of up to 60 trials", () => {
    for (let trials = 0; trials <= 60; trials++) {
      for (let successes = 0; successes <= trials; successes++) expect(wilson(successes, trials), `${successes}/${trials}`).toEqual(apiWilson(successes, trials))
    }
    expect(wilson(356, 580)).toEqual(apiWilson(356, 580))
    expect(wilson(1, 1)).toEqual({ low: 20.65, high: 100 })
  })
})

describe("the period's interval and previous period", () => {
  const query = (text: string) => new URLSearchParams(text)
  it("draws by day up to 60 days and by week past them, unless the user chose", () => {
    expect(readInterval(query("days=60"), readFilters(query("days=60")))).toBe("day")
    expect(readInterval(query("days=61"), readFilters(query("days=61")))).toBe("week")
    expect(readInterval(query("days=90&interval=day"), readFilters(query("days=90")))).toBe("day")
    expect(readInterval(query("start=2026-01-01&end=2026-03-31"), readFilters(query("start=2026-01-01&end=2026-03-31")))).toBe("week")
    expect(readInterval(query("interval=month"), readFilters(query("")))).toBe("month")
  })

  it("takes the previous period as long as the window, right before it", () => {
    expect(previousPeriod(readFilters(query("start=2026-03-01&end=2026-03-31")))).toEqual({ start: "2026-01-29", end: "2026-02-28" })
    expect(previousPeriod(readFilters(query("start=2026-03-01&end=2026-03-01")))).toEqual({ start: "2026-02-28", end: "2026-02-28" })
  })
})

describe("answers' markdown", () => {
  it("keeps a link's address only for http, https and mailto", () => {
    expect(safeUrl("https://acme.example/a?b=1")).toBe("https://acme.example/a?b=1")
    expect(safeUrl("http://acme.example/")).toBe("http://acme.example/")
    expect(safeUrl("mailto:sales@acme.example")).toBe("mailto:sales@acme.example")
    for (const unsafe of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<b>x</b>", "vbscript:x", "file:///etc/passwd", "/relative", "//acme.example/x", "#top", ""]) {
      expect(safeUrl(unsafe), unsafe).toBeNull()
    }
  })

  it("gives a snippet its text without the syntax, raw HTML as text, blocks joined by a space", () => {
    expect(plainText("**Zoho CRM** and *Acme*.\n\n1. `one`\n2. [two](https://x.example)\n\n| a | b |\n|---|---|\n| c | d |")).toBe("Zoho CRM and Acme. one two a b c d")
    expect(plainText("<script>alert(1)</script>\n\nText")).toBe("<script>alert(1)</script> Text")
    expect(plainText("")).toBe("")
  })
})

describe("abilities in words", () => {
  it("names every ability of the API in words, and a key's list grouped by verb", () => {
    for (const ability of abilities) expect(abilityInWords(ability), ability).not.toMatch(/:/)
    expect(new Set(abilities.map(abilityInWords)).size).toBe(abilities.length)
    expect(abilitiesInWords(["*"])).toBe("Everything")
    expect(abilitiesInWords(["projects:read", "tags:read", "tags:write", "keys:manage"])).toBe("Read projects, tags; Edit tags; Manage API keys")
    expect(abilitiesInWords(["future:ability"])).toBe("future:ability")
  })
})

describe("a change's previous value and its small-sample flag", () => {
  it("rounds the previous period's percentage from its counts as the API does, half away from zero", () => {
    for (let total = 0; total <= 200; total++) {
      for (let count = 0; count <= total; count++) expect(percentage(count, total), `${count}/${total}`).toBe(apiPercentage(count, total))
    }
    for (const [count, total] of [[145, 100_000], [1, 8], [5, 8], [123_457, 1_000_000], [2_999_999, 3_000_000]] as const) {
      expect(percentage(count, total), `${count}/${total}`).toBe(apiPercentage(count, total))
    }
    expect(percentage(145, 100_000)).toBe(0.15)
    expect(percentage(1, 8)).toBe(12.5)
    expect(percentage(0, 0)).toBeNull()
  })

  it("flags a change when either period holds fewer than 30, and only then", () => {
    expect(SMALL_SAMPLE).toBe(30)
    expect(isSmallSample(29, 500)).toBe(true)
    expect(isSmallSample(500, 29)).toBe(true)
    expect(isSmallSample(30, 30)).toBe(false)
    expect(isSmallSample(0, 1000)).toBe(true)
  })
})
