/**
 * The word material of the simulated platform (`Simulated.ts`): sentence templates by tone and the
 * fixed universe of cited pages. Data only.
 *
 * `{b}` stands for a brand (its name or an alias) and `{topic}` for the prompt's topic. The tone
 * sentences are written for the AFINN-165 lexicon that scores mentions (docs/detection.md): positive
 * ones hold words it rates above zero, negative ones words it rates below, neutral ones none at all
 * (a test checks each). Beware the lexicon's surprises: "like", "support", "free", "top", "clear",
 * "easy" and "trust" are positive, "hard" is negative; "not" negates the next word.
 */

export type Tone = "positive" | "neutral" | "negative"

export const toneSentences: Record<Tone, ReadonlyArray<string>> = {
  positive: [
    "{b} is a solid choice for most teams, and reviewers consistently praise its onboarding.",
    "Many users recommend {b} for its reliable performance and helpful documentation.",
    "{b} stands out with an impressive feature set and strong integrations.",
    "If getting started quickly matters most, {b} is one of the best options available.",
    "{b} gets excellent marks for customer service, and people love how quickly it can be set up.",
    "Reviewers describe {b} as powerful yet simple to learn.",
    "{b} is a popular pick and offers great value for smaller budgets.",
    "For growing companies, {b} is a trusted and effective option."
  ],
  neutral: [
    "{b} is another option that comes up in most comparisons.",
    "{b} focuses on larger organizations and offers several pricing tiers.",
    "{b} covers the core features, with add-ons available on higher plans.",
    "You will also see {b} mentioned, mainly by companies in the mid-market.",
    "{b} takes a different approach, built around templates and automation.",
    "{b} has been around for several years and publishes its pricing online.",
    "Some teams pair {b} with other tools through its API.",
    "{b} is available in most regions and integrates with common workplace apps."
  ],
  negative: [
    "{b} is often criticized for confusing pricing, and some users complain about slow answers from the vendor.",
    "Several reviews mention problems with {b}, especially around reporting.",
    "{b} can feel dated, and new users find its interface difficult to navigate.",
    "Users report frustrating outages with {b} during busy periods.",
    "{b} has weak reporting, which is a common complaint in reviews.",
    "Some customers were disappointed with {b} after the latest price increase.",
    "The main drawback of {b} is poor documentation, which makes setup a struggle."
  ]
}

/** First paragraph: echoes the prompt's topic, names no brand. */
export const introSentences: ReadonlyArray<string> = [
  "Here is a quick overview of {topic}.",
  "When it comes to {topic}, a few names come up again and again.",
  "There is no single answer for {topic}; it depends on your budget, team size and the integrations you need.",
  "Looking at {topic}, the market has several established players and a few newer ones.",
  "Based on recent reviews and comparisons, here is how the main options for {topic} line up."
]

/** What the intro says when the prompt cannot be echoed (empty, or naming a brand). */
export const fallbackTopic = "this question"

/** Ends a bulleted intro, before the list. */
export const listLeads: ReadonlyArray<string> = [
  "The options most often mentioned are:",
  "Here are the names you will see most:",
  "A short list to start from:"
]

/** Last paragraph: advice without a brand. */
export const closingSentences: ReadonlyArray<string> = [
  "The right choice depends on your budget, the size of your team and the tools you already use.",
  "Most of these offer a trial, so it is worth testing two or three before committing.",
  "Pricing and features change often, so check the current plans on each vendor's site.",
  "If you have specific requirements, such as compliance or on-premise hosting, narrow the list with those first.",
  "Reading recent user reviews is the fastest way to see how each option holds up in practice."
]

/** Paths of a brand's own site, for the brands' domains that are cited. */
export const brandPaths: ReadonlyArray<string> = ["/", "/pricing", "/features", "/customers", "/blog"]

/**
 * The fixed universe of third-party pages the simulated platform cites: review sites, forums, news,
 * reference and docs, five stable pages each, so that the same URLs recur across answers and days.
 */
export const citedPages: ReadonlyArray<readonly [domain: string, paths: ReadonlyArray<string>]> = [
  ["www.g2.com", ["/categories/software", "/compare", "/reviews", "/reports/grid", "/best-software-companies"]],
  ["www.capterra.com", ["/software", "/reviews", "/compare", "/resources/buyers-guide", "/top-rated"]],
  ["www.trustradius.com", ["/reviews", "/compare-products", "/buyer-guides", "/top-rated", "/categories"]],
  ["www.getapp.com", ["/software", "/compare", "/reviews", "/alternatives", "/resources"]],
  ["www.softwareadvice.com", ["/reviews", "/compare", "/buyers-guide", "/frontrunners", "/resources"]],
  ["www.trustpilot.com", ["/categories/software_company", "/review", "/categories", "/blog", "/trends"]],
  ["www.gartner.com", ["/reviews/market", "/en/research", "/en/documents", "/peer-insights", "/en/newsroom"]],
  ["www.forrester.com", ["/research", "/report/the-wave", "/blogs", "/what-it-means", "/predictions"]],
  ["www.reddit.com", ["/r/smallbusiness/comments/1a2b3c", "/r/sysadmin/comments/4d5e6f", "/r/startups/comments/7g8h9i", "/r/SaaS/comments/0j1k2l", "/r/Entrepreneur/comments/3m4n5o"]],
  ["news.ycombinator.com", ["/item?id=38012345", "/item?id=39123456", "/item?id=40234567", "/item?id=41345678", "/item?id=42456789"]],
  ["www.quora.com", ["/What-software-do-you-recommend", "/Which-tool-is-the-best-for-small-teams", "/How-do-I-choose-software", "/What-are-the-alternatives", "/Is-it-worth-paying-for-software"]],
  ["stackoverflow.com", ["/questions/68123456", "/questions/70234567", "/questions/72345678", "/questions/74456789", "/questions/76567890"]],
  ["www.producthunt.com", ["/topics/productivity", "/topics/saas", "/leaderboard", "/categories", "/stories"]],
  ["medium.com", ["/@reviews/a-practical-comparison-3f2a1b", "/@pm/lessons-from-switching-tools-9c8d7e", "/@ops/what-we-learned-6b5a4c", "/topic/software", "/@startups/our-stack-2e1f0a"]],
  ["techcrunch.com", ["/category/startups", "/category/enterprise", "/2025/03/12/funding-round", "/2025/09/04/product-launch", "/category/apps"]],
  ["www.theverge.com", ["/tech", "/reviews", "/2025/6/18/software-roundup", "/apps", "/policy"]],
  ["www.wired.com", ["/category/business", "/gallery/best-apps", "/story/software-guide", "/category/gear", "/category/security"]],
  ["www.zdnet.com", ["/article/best-software", "/article/review", "/topic/enterprise-software", "/topic/cloud", "/topic/business"]],
  ["www.techradar.com", ["/best/best-software", "/reviews", "/news", "/pro", "/best/best-business-tools"]],
  ["www.pcmag.com", ["/picks/the-best-software", "/reviews", "/comparisons", "/news", "/how-to"]],
  ["www.cnet.com", ["/tech/services-and-software", "/reviews", "/news", "/tech/computing", "/deals"]],
  ["www.forbes.com", ["/advisor/business/software", "/sites/technology", "/advisor/business", "/innovation", "/business"]],
  ["www.businessinsider.com", ["/tech", "/guides/tech", "/strategy", "/enterprise", "/markets"]],
  ["www.nytimes.com", ["/section/technology", "/wirecutter/reviews", "/section/business", "/wirecutter/guides", "/section/business/dealbook"]],
  ["www.theguardian.com", ["/technology", "/business", "/technology/software", "/money", "/media"]],
  ["www.bbc.com", ["/news/technology", "/news/business", "/worklife", "/future", "/news/world"]],
  ["www.reuters.com", ["/technology", "/business", "/markets/deals", "/technology/cybersecurity", "/business/retail-consumer"]],
  ["www.bloomberg.com", ["/technology", "/markets", "/news/articles", "/businessweek", "/deals"]],
  ["www.wsj.com", ["/tech", "/business", "/articles", "/tech/personal-tech", "/finance"]],
  ["en.wikipedia.org", ["/wiki/Software_as_a_service", "/wiki/Comparison_of_software", "/wiki/Cloud_computing", "/wiki/Enterprise_software", "/wiki/Business_software"]],
  ["www.youtube.com", ["/watch?v=dQ4w9WgXcQ1", "/watch?v=a1B2c3D4e5F", "/watch?v=Z9y8X7w6V5u", "/watch?v=k3J4h5G6f7D", "/watch?v=q1W2e3R4t5Y"]],
  ["www.linkedin.com", ["/pulse/choosing-right-software", "/pulse/lessons-from-a-migration", "/pulse/market-overview", "/business/learning", "/pulse/buyers-checklist"]],
  ["github.com", ["/topics/saas", "/topics/productivity", "/trending", "/explore", "/topics/automation"]],
  ["developer.mozilla.org", ["/en-US/docs/Web/API", "/en-US/docs/Web/HTTP", "/en-US/docs/Learn", "/en-US/docs/Web/Security", "/en-US/docs/Glossary"]],
  ["hbr.org", ["/topic/technology", "/topic/strategy", "/2024/05/choosing-the-right-tools", "/topic/innovation", "/topic/managing-people"]],
  ["www.mckinsey.com", ["/capabilities/mckinsey-digital/our-insights", "/featured-insights", "/industries/technology-media-and-telecommunications/our-insights", "/capabilities/operations/our-insights", "/mgi/our-research"]],
  ["www.statista.com", ["/statistics/market-size", "/topics/software", "/outlook/tmo/software", "/statistics/market-share", "/chart/software-spending"]],
  ["www.investopedia.com", ["/terms/s/saas.asp", "/terms/c/cloud-computing.asp", "/terms/m/marketshare.asp", "/articles/investing/software", "/terms/t/total-cost-of-ownership.asp"]],
  ["www.nerdwallet.com", ["/article/small-business/software", "/best/small-business", "/article/small-business", "/article/finance", "/reviews/small-business"]],
  ["www.tomsguide.com", ["/best-picks/best-software", "/reviews", "/news", "/how-to", "/best-picks"]]
]
