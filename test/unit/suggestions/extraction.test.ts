import { describe, expect, it } from "@effect/vitest"
import type { BrandToDetect } from "../../../src/Detection/Mentions.js"
import { extractCandidates, type ExtractionContext } from "../../../src/Suggestions/Extraction.js"
import { categoryWordsOf, domainKeyOf, keyOf } from "../../../src/Suggestions/Keys.js"
import { proseSpans, structuralSpans } from "../../../src/Suggestions/Spans.js"

const tracked: ReadonlyArray<BrandToDetect> = [
  { id: 1, name: "Acme", aliases: ["Acme Cloud"], domains: ["acme.com"], classification: "other" },
  { id: 2, name: "HubSpot", aliases: [], domains: ["hubspot.com"], classification: "competitor" },
  { id: 3, name: "Soylent", aliases: [], domains: [], classification: "ignored" }
]
const context: ExtractionContext = { tracked, prompt: "What is the best CRM for small business?" }
const keys = (text: string, citations: ReadonlyArray<string> = [], ctx: ExtractionContext = context) =>
  extractCandidates({ text, citations }, ctx).candidates.filter((c) => c.confirmed).map((c) => c.key)

describe("keyOf", () => {
  it.each<[string, string]>([
    ["HubSpot", "hubspot"],
    ["HubSpot CRM", "hubspot"],
    ["Hubspot's", "hubspot"],
    ["HubSpot, Inc.", "hubspot"],
    ["Monday.com", "monday"],
    ["monday.com CRM", "monday"],
    ["Active Campaign", "activecampaign"],
    ["ActiveCampaign", "activecampaign"],
    ["Salesforce Sales Cloud", "salesforce"],
    ["Less Annoying CRM", "lessannoying"],
    ["Zoho Corporation Pvt", "zohocorporationpvt"],
    ["Node.js", "nodejs"],
    ["Émile GmbH", "émile"],
    ["CRM", "crm"],
    ["!!", ""]
  ])("%s → %s", (name, key) => {
    expect(keyOf(name)).toBe(key)
  })

  it("drops the project's frequent prompt words from the end", () => {
    const words = categoryWordsOf(["best password manager for teams", "password managers for families", "is a password manager safe"])
    expect(keyOf("Bitwarden Password Manager", words)).toBe("bitwarden")
    expect(keyOf("Bitwarden Password Manager")).toBe("bitwardenpassword")
    // A word in one prompt of three is not a category word.
    expect(words.has("families")).toBe(false)
  })

  it("keys a domain by its main label", () => {
    expect(domainKeyOf("monday.com")).toBe("monday")
    expect(domainKeyOf("less-annoying-crm.co.uk")).toBe("lessannoyingcrm")
  })
})

describe("spans", () => {
  it("takes list leads, bold, headings, first table cells and link anchors", () => {
    const text = [
      "## 1. Pipedrive",
      "- **Zoho CRM**: cheap",
      "- Freshsales – AI scoring",
      "* Best for enterprises: Salesforce",
      "| Tool | Price |",
      "|---|---|",
      "| Copper | $9 |",
      "See [Nimble](https://nimble.com) too."
    ].join("\n")
    const spans = structuralSpans(text).map((s) => `${s.kind}:${s.text}`)
    expect(spans).toEqual(expect.arrayContaining([
      "heading:Pipedrive",
      "list:Zoho CRM",
      "list:Freshsales",
      "list:Best for enterprises",
      "list:Salesforce",
      "table:Copper",
      "bold:Zoho CRM",
      "link:Nimble"
    ]))
    // The header row names columns.
    expect(spans).not.toContain("table:Tool")
    for (const s of structuralSpans(text)) expect(text.slice(s.start, s.end)).toBe(s.text)
  })

  it("reads prose runs with their place in the sentence", () => {
    const text = "Apple Watch is nice. Teams pick Bank of America or Marks & Spencer, and HubSpot."
    const spans = proseSpans(text).map((s) => [s.text, s.sentenceStart])
    expect(spans).toEqual([["Apple Watch", true], ["Teams", true], ["Bank of America", false], ["Marks & Spencer", false], ["HubSpot", false]])
  })

  it("finds no prose names in a sentence about integrations", () => {
    expect(proseSpans("It integrates with Gmail and Outlook.").map((s) => s.text)).toEqual([])
    expect(proseSpans("It syncs with Gmail. Zoho is cheaper than Pipedrive.").map((s) => s.text)).toEqual(["Zoho", "Pipedrive"])
  })
})

describe("extractCandidates", () => {
  it("finds the recommended brands of a markdown answer and none of its traps", () => {
    const text = [
      "Here are the best CRM tools for Small Business in 2025.",
      "",
      "On Monday we shipped an update. Apple Watch is not a CRM.",
      "",
      "1. **HubSpot CRM** – free forever plan, great for startups.",
      "2. **Pipedrive**: visual pipelines. See pipedrive.com for pricing.",
      "3. **Zoho CRM** - cheap and flexible.",
      "- Monday.com: boards for sales teams",
      "- Best for enterprises: Salesforce Sales Cloud",
      "",
      "| Tool | Price |",
      "|---|---|",
      "| Freshsales | $9 |",
      "| Acme | $12 |",
      "",
      "According to G2 and Reddit, Nimble is rising; Soylent is not. Read more on [TechRadar](https://www.techradar.com/best/crm)."
    ].join("\n")
    const result = extractCandidates({ text, citations: ["https://www.g2.com/x", "https://www.zoho.com/crm/", "https://close.com/", "https://zapier.com/blog/best-crm-app/"] }, context)
    expect(result.candidates.filter((c) => c.confirmed).map((c) => c.key)).toEqual(["pipedrive", "zoho", "monday", "salesforce", "freshsales", "nimble", "close"])
    // "Apple Watch" only starts a sentence: unconfirmed.
    expect(result.candidates.filter((c) => !c.confirmed).map((c) => c.key)).toEqual(["applewatch"])
    const zoho = result.candidates.find((c) => c.key === "zoho")!
    expect(zoho).toMatchObject({ spellings: ["Zoho CRM"], domains: ["zoho.com"], inList: true, bold: true, cited: true, linked: false })
    expect(text.slice(zoho.occurrences[0]!.start, zoho.occurrences[0]!.end)).toBe("Zoho CRM")
    expect(result.candidates.find((c) => c.key === "pipedrive")!.domains).toEqual(["pipedrive.com"])
    // A cited domain alone is a candidate, after every brand the text names; a publisher's list (zapier.com/blog/best-…) is not.
    expect(result.candidates.at(-1)).toMatchObject({ key: "close", occurrences: [], cited: true, order: 9 })
    // Tracked brands keep their own places in the order; the ignored one counts for nothing.
    expect(result.tracked.map((t) => [t.brand_id, t.order])).toEqual([[2, 1], [1, 7]])
  })

  it("never suggests a tracked name, alias or domain, nor a name holding one", () => {
    expect(keys("- Acme Cloud\n- **HubSpot Sales Hub**\n- ACME\n- Hubspot's CRM\n- Pipedrive", ["https://blog.acme.com/x", "https://hubspot.com"])).toEqual(["pipedrive"])
    // An ignored brand is never suggested either.
    expect(keys("- Soylent\n- Pipedrive")).toEqual(["pipedrive"])
  })

  it("never suggests a stop-listed site, by domain or by name", () => {
    const citations = ["https://www.reddit.com/r/crm", "https://en.wikipedia.org/wiki/CRM", "https://www.g2.com/categories/crm", "https://www.forbes.com/advisor/crm"]
    expect(keys("- **Reddit** threads\n- [Wikipedia](https://en.wikipedia.org/wiki/CRM)\n- G2 reviews\n- Capterra\n- Pipedrive", citations)).toEqual(["pipedrive"])
  })

  it("drops the prompt's own words, generic words, days and places", () => {
    expect(keys("- **Small Business**\n- **Best Overall**\n- **Free Plan**\n- **Monday**\n- **Germany**\n- **Pros**\n- **Key Features**\n- Close")).toEqual(["close"])
  })

  it("confirms a sentence-initial name only when the answer writes it elsewhere too", () => {
    expect(keys("Insightly is simple. Many teams like it.")).toEqual([])
    expect(extractCandidates({ text: "Insightly is simple.", citations: [] }, context).candidates).toMatchObject([{ key: "insightly", confirmed: false }])
    // A domain confirms it.
    expect(keys("Insightly is simple.", ["https://www.insightly.com/"])).toEqual(["insightly"])
    expect(keys("Insightly is simple. Many teams choose Insightly.")).toEqual(["insightly"])
    expect(keys("Insightly is simple.\n- **Insightly**")).toEqual(["insightly"])
  })

  it("merges the variants of one brand and links its domain", () => {
    const [zoho] = extractCandidates({ text: "- **Zoho CRM**: cheap. Zoho's mobile app is good; zoho.com has prices.", citations: [] }, context).candidates
    expect(zoho).toMatchObject({ key: "zoho", spellings: ["Zoho CRM", "Zoho"], domains: ["zoho.com"] })
  })

  it("reads names in any script and case, whole words only", () => {
    expect(keys("- **Société Générale**\n- Hubspotter")).toEqual(["sociétégénérale", "hubspotter"])
  })

  it("drops cited domains with a generic label unless the text writes them", () => {
    expect(keys("Compare them.", ["https://www.security.org/x"])).toEqual([])
    expect(keys("- **monday.com** boards")).toEqual(["monday"])
  })

  it("is deterministic", () => {
    const text = "- **Pipedrive**\n- Zoho\n\nMany pick Nimble or Copper over Insightly."
    const first = extractCandidates({ text, citations: ["https://close.com"] }, context)
    expect(extractCandidates({ text, citations: ["https://close.com"] }, context)).toStrictEqual(first)
    expect(first.candidates.map((c) => c.order)).toEqual([1, 2, 3, 4, 5, 6])
  })
})
