import { describe, expect, it } from "vitest"
import { queryString } from "../../web/src/api/client.ts"
import { highlight } from "../../web/src/highlight.ts"

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
