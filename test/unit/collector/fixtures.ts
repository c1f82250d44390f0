import { Effect } from "effect"
import type { Schedule } from "../../../src/Domain/Monitor.ts"
import type { Platform } from "../../../src/Domain/Platform.ts"
import { BrandsRepo } from "../../../src/Brands/Repo.ts"
import { MonitorsRepo } from "../../../src/Monitors/Repo.ts"
import { OrganizationsRepo } from "../../../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../../../src/Projects/Repo.ts"
import { PromptsRepo } from "../../../src/Prompts/Repo.ts"

/** A project with its own brand and a competitor, one monitor and its prompts, made through the repositories. */
export const monitorWithPrompts = (options: {
  readonly schedule?: Schedule
  readonly active?: boolean
  readonly platforms?: ReadonlyArray<Platform>
  readonly prompts?: number
  readonly simulated?: boolean
}) =>
  Effect.gen(function*() {
    const organization = yield* (yield* OrganizationsRepo).create("Collector Inc.")
    const projects = yield* ProjectsRepo
    const project = yield* projects.create(organization.id, { name: "Acme", domain: "acme.example" })
    const brands = yield* BrandsRepo
    const own = yield* brands.create(project.id, { name: "Acme", aliases: ["Acme CRM"], domains: ["acme.example"], classification: "competitor", segment_ids: [] })
    const rival = yield* brands.create(project.id, { name: "Globex", aliases: [], domains: ["globex.example"], classification: "competitor", segment_ids: [] })
    yield* projects.update(project.id, { brand_id: own.id })
    const monitor = yield* (yield* MonitorsRepo).create(project.id, {
      name: "US",
      country: "US",
      platforms: options.platforms ?? ["chatgpt", "perplexity"],
      schedule: options.schedule ?? "daily",
      active: options.active ?? true,
      simulated: options.simulated ?? false
    })
    const prompts = yield* Effect.forEach(
      Array.from({ length: options.prompts ?? 2 }, (_, i) => i),
      (i) => Effect.flatMap(PromptsRepo, (repo) => repo.create(project.id, { monitor_id: monitor.id, text: `Best CRM ${i}?`, tag_ids: [] }))
    )
    return { organization, project, monitor, prompts, own, rival }
  })
