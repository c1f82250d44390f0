import type { BrandCounts } from "../../../src/Analytics/Analytics.ts"
import { lastFullWeeks } from "../../../src/Integrations/IsoWeek.ts"
import type { DigestInput } from "../../../src/Integrations/WeeklyDigest.ts"

/** A digest's counts: four brands, prompts that moved or not, sources entering the top 10. */
const counts = (responses: number, mentioned: number, totalMentions: number): BrandCounts => ({
  responses,
  mentioned,
  totalMentions,
  positionSum: mentioned * 2,
  sentimentSum: mentioned * 60
})

export const digestInput: DigestInput = {
  project: { id: 7, name: "Acme <CRM> & co" },
  ...lastFullWeeks(new Date("2026-11-30T06:00:00Z")),
  brands: [
    { brand: { id: 2, name: "Globex", is_own: false }, w: counts(2000, 700, 3000), p: counts(2000, 600, 2900) },
    { brand: { id: 1, name: "Acme", is_own: true }, w: counts(2000, 600, 3000), p: counts(2000, 700, 2900) },
    { brand: { id: 3, name: "Initech", is_own: false }, w: counts(2000, 0, 3000), p: counts(2000, 0, 2900) },
    { brand: { id: 4, name: "Hooli", is_own: false }, w: counts(0, 0, 0), p: counts(10, 1, 1) }
  ],
  prompts: [
    { prompt: { id: 10, text: "best crm" }, w: { count: 30, total: 100 }, p: { count: 50, total: 100 } },
    { prompt: { id: 11, text: "crm for agencies" }, w: { count: 3, total: 4 }, p: { count: 1, total: 4 } },
    { prompt: { id: 12, text: "steady" }, w: { count: 5, total: 10 }, p: { count: 5, total: 10 } },
    { prompt: { id: 13, text: "new prompt" }, w: { count: 5, total: 10 }, p: { count: 0, total: 0 } },
    { prompt: { id: 14, text: "small move" }, w: { count: 11, total: 100 }, p: { count: 10, total: 100 } }
  ],
  sources: [
    ...Array.from({ length: 10 }, (_, i) => ({ source: { id: 100 + i, domain: `old${i}.example` }, w: { count: 50 - i, total: 2000 }, p: { count: 60 - i, total: 2000 } })),
    { source: { id: 200, domain: "rising.example" }, w: { count: 55, total: 2000 }, p: { count: 5, total: 2000 } },
    { source: { id: 201, domain: "tied.example" }, w: { count: 43, total: 2000 }, p: { count: 0, total: 2000 } }
  ],
  runs: { runs_completed: 14, runs_failed: 1, responses_collected: 2000, responses_failed: 12 }
}

