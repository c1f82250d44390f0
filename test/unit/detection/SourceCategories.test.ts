import { describe, expect, it } from "@effect/vitest"
import { normalizeUrl } from "../../../src/Detection/Urls.js"
import { categorizeSource, sourceCategories, sourceCategorizer } from "../../../src/Sources/Categories.js"
import { hostsFile, isStopListed, matchHostRules } from "../../../src/Sources/HostRules.js"
import { hostPatterns, pageTypeOf, pageTypes } from "../../../src/Sources/PageTypes.js"

/** The project of these tests: its own site, and two competitors. */
const brands = { own: ["acme.com", "www.acme.de"], competitors: ["globex.com", "initech.io"] }

/** [URL as cited, category of its source domain, page type of the URL]. */
const realWorld: ReadonlyArray<readonly [string, string, string]> = [
    // The project's own and its competitors' sites.
    ["https://www.acme.com/", "own", "homepage"],
    ["https://acme.com/pricing", "own", "product"],
    ["https://blog.acme.com/2024/05/how-we-built-our-crm", "own", "article"],
    ["https://acme.de/produkte/acme-crm", "own", "product"],
    ["https://docs.globex.com/api/authentication", "competitor", "documentation"],
    ["https://www.globex.com/en-us/", "competitor", "homepage"],
    ["https://initech.io/compare/initech-vs-acme", "competitor", "comparison"],
    ["https://initech.io/blog/best-crm-for-startups", "competitor", "listicle"],
    // Forums and question-and-answer sites.
    ["https://www.reddit.com/r/sales/comments/1abc2d/which_crm_do_you_use/", "ugc", "forum_thread"],
    ["https://old.reddit.com/r/smallbusiness/", "ugc", "category"],
    ["https://www.reddit.com/user/spez/", "ugc", "profile"],
    ["https://redd.it/1abc2d", "ugc", "forum_thread"],
    ["https://www.quora.com/What-is-the-best-CRM-for-a-small-business", "ugc", "forum_thread"],
    ["https://www.quora.com/profile/Jane-Doe-12", "ugc", "profile"],
    ["https://stackoverflow.com/questions/11227809/why-is-processing-a-sorted-array-faster", "ugc", "forum_thread"],
    ["https://stackoverflow.com/questions/tagged/typescript", "ugc", "category"],
    ["https://superuser.com/users/12345/jane", "ugc", "profile"],
    ["https://news.ycombinator.com/item?id=38000000", "ugc", "forum_thread"],
    ["https://community.hubspot.com/t5/CRM/How-to-merge-contacts/td-p/123456", "ugc", "forum_thread"],
    ["https://forum.example.org/t/migrating-from-acme/4711", "ugc", "forum_thread"],
    ["https://answers.microsoft.com/en-us/outlook_com/forum/all/cannot-sync/abc", "ugc", "forum_thread"],
    ["https://www.gutefrage.net/frage/welches-crm-fuer-kleine-firmen", "ugc", "article"],
    // Social networks.
    ["https://www.linkedin.com/in/janedoe/", "ugc", "profile"],
    ["https://www.linkedin.com/company/acme-corp/", "ugc", "profile"],
    ["https://www.linkedin.com/pulse/why-crm-projects-fail-jane-doe", "ugc", "article"],
    ["https://www.linkedin.com/posts/janedoe_crm-sales-activity-7100000000000000000-abcd", "ugc", "forum_thread"],
    ["https://x.com/elonmusk/status/1700000000000000000", "ugc", "forum_thread"],
    ["https://twitter.com/acme", "ugc", "profile"],
    ["https://www.facebook.com/groups/smallbiz/posts/123456789/", "ugc", "forum_thread"],
    ["https://www.facebook.com/AcmeCorp", "ugc", "profile"],
    ["https://www.instagram.com/p/C1a2B3c4D5e/", "ugc", "forum_thread"],
    ["https://www.instagram.com/acme/", "ugc", "profile"],
    ["https://www.tiktok.com/@acme/video/7300000000000000000", "ugc", "video"],
    ["https://www.pinterest.co.uk/pin/123456789/", "ugc", "other"],
    // Video.
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "ugc", "video"],
    ["https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "ugc", "video"],
    ["https://youtu.be/dQw4w9WgXcQ", "ugc", "video"],
    ["https://www.youtube.com/shorts/abcdEFGhijk", "ugc", "video"],
    ["https://www.youtube.com/@mkbhd", "ugc", "profile"],
    ["https://www.youtube.com/channel/UC1234567890", "ugc", "profile"],
    ["https://vimeo.com/76979871", "ugc", "video"],
    ["https://www.twitch.tv/videos/1900000000", "ugc", "video"],
    // Self-published and code.
    ["https://medium.com/@janedoe/10-crm-mistakes-to-avoid-3f2a1b", "ugc", "article"],
    ["https://medium.com/@janedoe", "ugc", "profile"],
    ["https://janedoe.substack.com/p/the-state-of-crm-2024", "ugc", "article"],
    ["https://acme-fan.blogspot.com/2023/11/my-acme-review.html", "ugc", "article"],
    ["https://janedoe.github.io/notes/crm-comparison", "ugc", "comparison"],
    ["https://github.com/acme-oss", "ugc", "profile"],
    ["https://github.com/microsoft/vscode", "ugc", "documentation"],
    ["https://github.com/microsoft/vscode/issues/12345", "ugc", "forum_thread"],
    ["https://github.com/microsoft/vscode/blob/main/README.md", "ugc", "documentation"],
    ["https://www.npmjs.com/package/tldts", "ugc", "other"],
    // User reviews and classifieds.
    ["https://www.g2.com/products/hubspot-crm/reviews", "ugc", "product"],
    ["https://www.g2.com/compare/hubspot-crm-vs-salesforce-sales-cloud", "ugc", "comparison"],
    ["https://www.g2.com/categories/crm", "ugc", "category"],
    ["https://www.capterra.com/p/123456/Acme-CRM/", "ugc", "product"],
    ["https://www.capterra.co.uk/alternatives/123456/acme-crm", "ugc", "listicle"],
    ["https://www.trustpilot.com/review/acme.com", "ugc", "profile"],
    ["https://www.yelp.com/biz/joes-pizza-new-york", "ugc", "profile"],
    ["https://www.tripadvisor.co.uk/Hotel_Review-g186338-d192035-Reviews-The_Savoy-London_England.html", "ugc", "product"],
    ["https://www.kleinanzeigen.de/s-anzeige/fahrrad/123456", "ugc", "other"],
    // Reference.
    ["https://en.wikipedia.org/wiki/Customer_relationship_management", "reference", "article"],
    ["https://de.wikipedia.org/wiki/Kategorie:Software", "reference", "category"],
    ["https://www.britannica.com/technology/computer", "reference", "other"],
    ["https://www.merriam-webster.com/dictionary/cannot", "reference", "article"],
    ["https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/URL", "reference", "documentation"],
    ["https://www.investopedia.com/terms/c/customer-relation-management.asp", "reference", "other"],
    ["https://arxiv.org/abs/2401.12345", "reference", "other"],
    ["https://www.statista.com/statistics/1234/crm-market-size-worldwide/", "reference", "article"],
    // Editorial.
    ["https://www.nytimes.com/2024/03/01/technology/ai-chatbots.html", "editorial", "article"],
    ["https://www.nytimes.com/wirecutter/reviews/best-laptops/", "editorial", "listicle"],
    ["https://www.bbc.co.uk/news/technology-68000000", "editorial", "article"],
    ["https://www.theguardian.com/technology/2024/jan/10/ai-search", "editorial", "article"],
    ["https://www.forbes.com/advisor/business/software/best-crm-software/", "editorial", "listicle"],
    ["https://www.pcmag.com/picks/the-best-crm-software", "editorial", "listicle"],
    ["https://www.techradar.com/best/best-crm-software", "editorial", "listicle"],
    ["https://www.zdnet.com/article/hubspot-vs-salesforce/", "editorial", "comparison"],
    ["https://www.cnet.com/tech/mobile/iphone-15-review/", "editorial", "article"],
    ["https://www.heise.de/tests/Top-10-CRM-Systeme-im-Test-9600000.html", "editorial", "listicle"],
    ["https://www.lesnumeriques.com/aspirateur/comparatif-aspirateurs-robots-a123.html", "editorial", "comparison"],
    ["https://www.xataka.com/basics/mejores-crm-gratis", "editorial", "listicle"],
    ["https://www.spiegel.de/wirtschaft/", "editorial", "other"],
    ["https://news.google.com/articles/CBMiX2h0dHBz", "editorial", "article"],
    ["https://www.dailynews-example.com/local/story", "editorial", "other"],
    ["https://www.gartner.com/en/documents/4000000", "editorial", "other"],
    // Marketplaces and app stores.
    ["https://www.amazon.com/dp/B0BSHF7WHW", "corporate", "product"],
    ["https://www.amazon.co.uk/Sony-WH-1000XM5-Cancelling-Headphones/dp/B09Y2MYL5C/ref=sr_1_1", "corporate", "product"],
    ["https://www.amazon.de/s?k=kopfhoerer", "corporate", "category"],
    ["https://www.ebay.com/itm/123456789012", "corporate", "product"],
    ["https://www.etsy.com/listing/123456789/handmade-mug", "corporate", "product"],
    ["https://apps.apple.com/us/app/acme-crm/id123456789", "corporate", "product"],
    ["https://play.google.com/store/apps/details?id=com.acme.crm", "corporate", "product"],
    ["https://chromewebstore.google.com/detail/acme/abcdefghijklmnop", "corporate", "product"],
    // Institutions.
    ["https://www.gov.uk/guidance/vat-for-software", "institutional", "other"],
    ["https://www.irs.gov/businesses/small-businesses-self-employed", "institutional", "article"],
    ["https://www.ftc.gov/news-events/news/press-releases/2024/01/ftc-acts", "institutional", "article"],
    ["https://www.ox.ac.uk/research", "institutional", "other"],
    ["https://web.mit.edu/", "institutional", "homepage"],
    ["https://www.service-public.fr/particuliers/vosdroits/F123", "institutional", "other"],
    ["https://www.economie.gouv.fr/entreprises/crm", "institutional", "other"],
    ["https://www.meti.go.jp/english/", "institutional", "other"],
    ["https://eur-lex.europa.eu/eli/reg/2016/679/oj", "institutional", "other"],
    ["https://www.who.int/news-room/fact-sheets/detail/obesity", "institutional", "other"],
    ["https://www.uni-heidelberg.de/en/study", "institutional", "other"],
    // Companies' sites (the default), documentation, help centres.
    ["https://www.salesforce.com/products/sales-cloud/overview/", "corporate", "product"],
    ["https://www.hubspot.com/pricing/crm", "corporate", "product"],
    ["https://www.hubspot.com/products/crm", "corporate", "product"],
    ["https://www.zoho.com/crm/", "corporate", "other"],
    ["https://docs.stripe.com/payments/checkout", "corporate", "documentation"],
    ["https://stripe.com/docs/api", "corporate", "documentation"],
    ["https://help.shopify.com/en/manual/products", "corporate", "documentation"],
    ["https://support.apple.com/en-us/HT201236", "corporate", "documentation"],
    ["https://learn.microsoft.com/en-us/dynamics365/sales/overview", "corporate", "documentation"],
    ["https://www.notion.so/help/guides/category/project-management", "corporate", "documentation"],
    ["https://monday.com/blog/crm-and-sales/best-crm-software/", "corporate", "listicle"],
    ["https://www.pipedrive.com/en/blog/crm-comparison", "corporate", "comparison"],
    ["https://www.shopify.com/blog/what-is-a-crm-system", "corporate", "article"],
    ["https://www.ikea.com/us/en/p/billy-bookcase-white-00263850/", "corporate", "product"],
    ["https://www.ikea.com/us/en/cat/bookcases-10382/", "corporate", "other"],
    ["https://www.bestbuy.com/site/apple-airpods/6447382.p", "corporate", "other"],
    ["https://www.crunchbase.com/organization/acme-2", "corporate", "profile"],
    ["https://www.acmewidgets.com/about-us", "corporate", "other"],
    ["https://www.zapier.com/blog/best-crm-app/", "corporate", "listicle"],
    ["https://asana.com/compare/asana-vs-monday", "corporate", "comparison"],
    ["https://www.semrush.com/blog/author/jane-doe/", "corporate", "profile"],
    ["https://www.example.com/?s=crm", "corporate", "other"],
    ["https://www.example.com/?p=123", "corporate", "article"],
    ["https://www.example.com/index.html", "corporate", "homepage"],
    ["https://www.example.com/webinars/crm-basics", "corporate", "video"],
    ["https://www.example.com/best-practices-for-crm", "corporate", "article"],
    ["https://www.example.com/collections/summer-sale", "corporate", "category"],
    // Others: non-commercial suffixes, no registrable domain.
    ["https://www.mozilla.org/en-US/firefox/", "other", "other"],
    ["https://www.mozilla.org/", "other", "homepage"],
    ["http://192.168.0.1/admin", "other", "other"],
    ["http://localhost:3000/", "other", "homepage"],
    ["https://intranet/wiki/Home", "other", "article"]
]

describe("categories and page types of real-world URL shapes", () => {
  it.each(realWorld)("%s: %s, %s", (raw, category, pageType) => {
    const normalized = normalizeUrl(raw)
    expect(normalized).toBeDefined()
    expect(categorizeSource(normalized!.domain, brands).category).toBe(category)
    expect(pageTypeOf(normalized!.url)).toBe(pageType)
  })

  it("covers every category and page type with at least 80 URLs", () => {
    expect(realWorld.length).toBeGreaterThanOrEqual(80)
    expect(new Set(realWorld.map(([, category]) => category))).toEqual(new Set(sourceCategories))
    expect(new Set(realWorld.map(([, , pageType]) => pageType))).toEqual(new Set(pageTypes))
  })
})

describe("own and competitor", () => {
  it("come before the host lists, suffixes and heuristics", () => {
    const categorize = sourceCategorizer({
      own: ["reddit.com", "harvard.edu"],
      competitors: ["youtube.com", "nytimes.com", "forum.example.com", "amazon.de"]
    })
    expect(categorize("reddit.com")).toEqual({ category: "own", rule: "own", matched: "reddit.com" })
    expect(categorize("old.reddit.com").category).toBe("own")
    expect(categorize("harvard.edu").category).toBe("own")
    expect(categorize("youtube.com")).toEqual({ category: "competitor", rule: "competitor", matched: "youtube.com" })
    expect(categorize("m.youtube.com").category).toBe("competitor")
    expect(categorize("nytimes.com").category).toBe("competitor")
    expect(categorize("forum.example.com").category).toBe("competitor")
    expect(categorize("amazon.de").category).toBe("competitor")
    // What the brands do not claim still goes by the rules.
    expect(categorize("youtu.be")).toEqual({ category: "ugc", rule: "host", matched: "youtu.be" })
    expect(categorize("amazon.fr")).toEqual({ category: "corporate", rule: "host", matched: "amazon.*" })
    expect(categorize("mit.edu")).toEqual({ category: "institutional", rule: "suffix", matched: "edu" })
    expect(categorize("forum.other.com")).toEqual({ category: "ugc", rule: "heuristic", matched: "forum" })
  })

  it("a brand domain covers its subdomains only, as for mentions", () => {
    const categorize = sourceCategorizer(brands)
    expect(categorize("acme.com").category).toBe("own")
    expect(categorize("eu.shop.acme.com").category).toBe("own")
    expect(categorize("acme.de").category).toBe("own")
    expect(categorize("notacme.com").category).toBe("corporate")
    expect(categorize("acme.com.au").category).toBe("corporate")
    expect(categorize("acme.co").category).toBe("corporate")
    expect(categorize("globex.com.evil.net").category).toBe("corporate")
  })

  it("own wins over competitor for the same domain; otherwise the longest brand domain wins", () => {
    expect(categorizeSource("acme.com", { own: ["acme.com"], competitors: ["acme.com"] }).category).toBe("own")
    expect(categorizeSource("acme.com", { own: ["ACME.com"], competitors: ["www.acme.com"] }).category).toBe("own")
    const categorize = sourceCategorizer({ own: ["platform.com"], competitors: ["rival.platform.com"] })
    expect(categorize("platform.com").category).toBe("own")
    expect(categorize("rival.platform.com").category).toBe("competitor")
    expect(categorize("eu.rival.platform.com")).toEqual({ category: "competitor", rule: "competitor", matched: "rival.platform.com" })
    expect(categorize("other.platform.com").category).toBe("own")
  })

  it("brand domains and sources are compared as normalized hosts; unusable ones are ignored", () => {
    const categorize = sourceCategorizer({ own: ["https://WWW.Acme.COM/about", "", "  ", "http://"], competitors: ["Globex.com."] })
    expect(categorize("acme.com").category).toBe("own")
    expect(categorize("WWW.ACME.COM").category).toBe("own")
    expect(categorize("globex.com").category).toBe("competitor")
    expect(categorize("")).toEqual({ category: "other", rule: "default", matched: "" })
    expect(categorize("192.168.0.1").category).toBe("other")
    expect(categorize("[2001:db8::1]").category).toBe("other")
    expect(sourceCategorizer({ own: [], competitors: [] })("acme.com").category).toBe("corporate")
  })
})

describe("the host rules (hosts.json)", () => {
  const exactHosts = hostsFile.groups.flatMap((g) => g.hosts.filter((h) => !h.endsWith(".*")).map((h) => [h, g.name] as const))

  it("lists each host once, in one group, and never a bare public suffix", () => {
    const all = hostsFile.groups.flatMap((g) => g.hosts)
    expect(new Set(all).size).toBe(all.length)
    expect(new Set(hostsFile.groups.map((g) => g.name)).size).toBe(hostsFile.groups.length)
    for (const [host] of exactHosts) {
      // A bare suffix (co.uk, com) would claim every site under it.
      expect(matchHostRules(host).rule, host).toBe("host")
      expect(host.startsWith("www."), host).toBe(false)
    }
    expect(exactHosts.length).toBeGreaterThan(300)
  })

  it("each host entry claims its host and subdomains for its group", () => {
    for (const [host, group] of exactHosts) {
      expect(matchHostRules(host).name, host).toBe(group)
      expect(matchHostRules(`sub.${host}`).name, host).toBe(group)
    }
  })

  it.each([
    // The longest host entry wins over a shorter one and over the defaults.
    ["answers.microsoft.com", "host", "forum", "ugc"],
    ["microsoft.com", "default", "commercial", "corporate"],
    ["abcnews.go.com", "host", "news", "editorial"],
    ["go.com", "default", "commercial", "corporate"],
    ["pubmed.ncbi.nlm.nih.gov", "host", "reference", "reference"],
    ["ncbi.nlm.nih.gov", "suffix", "government", "institutional"],
    // Name entries: any public suffix.
    ["amazon.com.br", "host", "marketplace", "corporate"],
    ["www.ebay.co.uk", "host", "marketplace", "corporate"],
    ["de.capterra.ch", "host", "user_reviews", "ugc"],
    ["amazonaws.com", "default", "commercial", "corporate"],
    // Suffixes.
    ["nasa.gov", "suffix", "government", "institutional"],
    ["gov.uk", "suffix", "government", "institutional"],
    ["www.gov.uk", "suffix", "government", "institutional"],
    ["impots.gouv.fr", "suffix", "government", "institutional"],
    ["boe.gob.es", "suffix", "government", "institutional"],
    ["www.gov.br", "suffix", "government", "institutional"],
    ["ird.govt.nz", "suffix", "government", "institutional"],
    ["www.oesterreich.gv.at", "suffix", "government", "institutional"],
    ["www.canada.gc.ca", "suffix", "government", "institutional"],
    ["www.nhs.uk", "suffix", "government", "institutional"],
    ["army.mil", "suffix", "government", "institutional"],
    ["who.int", "suffix", "government", "institutional"],
    ["stanford.edu", "suffix", "education", "institutional"],
    ["unimelb.edu.au", "suffix", "education", "institutional"],
    ["u-tokyo.ac.jp", "suffix", "education", "institutional"],
    ["cam.ac.uk", "suffix", "education", "institutional"],
    ["lausd.k12.ca.us", "suffix", "education", "institutional"],
    ["greenpeace.ngo", "suffix", "non_profit", "institutional"],
    // A suffix rule reads the public suffix, not any label.
    ["gov.example.com", "default", "commercial", "corporate"],
    ["governor.com", "default", "commercial", "corporate"],
    ["edu.example.com", "default", "commercial", "corporate"],
    ["acme.ac", "default", "commercial", "corporate"],
    // Heuristics, in order.
    ["forum.acme-bikes.com", "heuristic", "forum_subdomain", "ugc"],
    ["community.hubspot.com", "heuristic", "forum_subdomain", "ugc"],
    ["wiki.archlinux.org", "heuristic", "wiki_subdomain", "reference"],
    ["forum.com", "default", "commercial", "corporate"],
    ["dailynews.com", "heuristic", "news_name", "editorial"],
    ["berliner-zeitung.de", "heuristic", "news_name", "editorial"],
    ["heraldscotland.com", "heuristic", "news_name", "editorial"],
    ["uni-heidelberg.de", "heuristic", "university_name", "institutional"],
    ["univ-paris1.fr", "heuristic", "university_name", "institutional"],
    ["universiteitleiden.nl", "heuristic", "university_name", "institutional"],
    // Defaults.
    ["mozilla.org", "default", "non_commercial", "other"],
    ["bbc.org.uk", "default", "non_commercial", "other"],
    ["example.info", "default", "non_commercial", "other"],
    ["acme.io", "default", "commercial", "corporate"],
    ["acme.co.uk", "default", "commercial", "corporate"],
    ["localhost", "default", "no_registrable_domain", "other"],
    ["intranet", "default", "no_registrable_domain", "other"],
    ["10.0.0.1", "default", "no_registrable_domain", "other"],
    ["acme.notarealtld", "default", "no_registrable_domain", "other"]
  ] as const)("%s: %s %s (%s)", (host, rule, name, category) => {
    const match = matchHostRules(host)
    expect([match.rule, match.name, match.category]).toEqual([rule, name, category])
  })

  it("gives the stop-list of brand suggestions: editorial, reference, user-generated, marketplaces, app stores, institutions", () => {
    for (const host of ["reddit.com", "youtube.com", "medium.com", "g2.com", "en.wikipedia.org", "nytimes.com", "cnet.com"]) {
      expect(isStopListed(host), host).toBe(true)
    }
    for (const host of ["amazon.co.jp", "apps.apple.com", "play.google.com", "nasa.gov", "ox.ac.uk", "dailynews.com"]) {
      expect(isStopListed(host), host).toBe(true)
    }
    // Companies, and the subdomains that only look like communities, can be brands.
    for (const host of ["hubspot.com", "acme.io", "forum.acme.com", "mozilla.org", "localhost"]) {
      expect(isStopListed(host), host).toBe(false)
    }
    for (const group of hostsFile.groups) expect(group.stop_list, group.name).toBe(true)
  })
})

describe("pageTypeOf", () => {
  it.each([
    ["not a url", "other"],
    ["", "other"],
    ["ftp://example.com/docs/file", "other"],
    ["mailto:someone@example.com", "other"],
    ["https://example.com", "homepage"],
    ["https://example.com/en/", "homepage"],
    ["https://example.com/us/en/index.php", "homepage"],
    ["https://example.com/HOME", "homepage"],
    ["https://example.com/%E2%9C%93/best-%74ools-2024", "listicle"],
    ["https://example.com/blog/%zz-broken-escape-in-a-long-slug", "article"],
    ["https://example.com/best-buy-store-locations", "article"],
    ["https://example.com/top-10-crm-tools", "listicle"],
    ["https://example.com/top10-crm", "listicle"],
    ["https://example.com/7-ways-to-grow-sales", "listicle"],
    ["https://example.com/the-best-crm-for-startups", "listicle"],
    ["https://example.com/die-besten-crm-systeme", "listicle"],
    ["https://example.com/fr/les-meilleurs-crm", "listicle"],
    ["https://example.com/notion-alternatives", "listicle"],
    ["https://example.com/acme-vs-globex", "comparison"],
    ["https://example.com/de/crm-vergleich", "comparison"],
    ["https://example.com/products", "category"],
    ["https://example.com/blog", "category"],
    ["https://example.com/blog/page/2", "article"],
    ["https://example.com/category/crm", "category"],
    ["https://example.com/shop/mens/shoes", "category"],
    ["https://example.com/p/12345", "product"],
    ["https://example.com/features", "product"],
    ["https://example.com/tags/crm", "category"],
    ["https://example.com/videos/product-tour", "video"],
    ["https://example.com/media/tour.mp4", "video"],
    ["https://example.com/t/how-do-i-export/123", "forum_thread"],
    ["https://example.com/@jane", "profile"],
    ["https://example.com/2023/11/02/launch", "article"],
    ["https://example.com/news/2024-01-05-launch", "article"],
    ["https://docs.example.com/", "documentation"],
    ["https://example.com/faq", "documentation"],
    ["https://forums.example.com/", "homepage"],
    ["https://forums.example.com/u/jane", "profile"],
    ["https://forums.example.com/c/general", "category"],
    ["https://forums.example.com/some-thread", "forum_thread"],
    ["https://example.com/about-us", "other"]
  ] as const)("%j is %s", (url, type) => {
    expect(pageTypeOf(url)).toBe(type)
  })

  it("every known host's patterns are anchored and free of nested quantifiers", () => {
    for (const { paths } of hostPatterns) {
      for (const [pattern] of paths) expect(pattern.source, pattern.source).not.toMatch(/\([^)]*[+*][^)]*\)[+*]/)
    }
  })
})
