import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../../src/Api.ts"
import type { Repository } from "../../src/Area.ts"
import { areas } from "../../src/Areas.ts"
import { abilities } from "../../src/Domain/Ability.ts"
import * as Repositories from "../../src/Repositories.ts"

/** The abilities an endpoint's guard checks: its middleware is `Authorize/<ability>` (Http/Authorize.ts). */
const abilitiesOf = (endpoint: { readonly middlewares: ReadonlySet<{ readonly key: string }> }) =>
  [...endpoint.middlewares].flatMap((middleware) => /^Authorize\/(.+)$/.exec(middleware.key)?.[1] ?? []).filter((name) => name !== "authenticated")

describe("the areas (src/Areas.ts)", () => {
  it("make the API: its groups are the areas' groups, in the list's order, each once", () => {
    const groups = areas.flatMap((area) => area.groups.map((group) => group.identifier))
    expect(Object.keys(Api.groups)).toEqual(groups)
    expect(new Set(groups).size).toBe(groups.length)
  })

  it("introduce every ability of the catalogue once, and their endpoints need no other", () => {
    const introduced = areas.flatMap((area) => area.abilities)
    expect([...introduced].sort()).toEqual([...abilities].sort())
    const needed = Object.values(Api.groups).flatMap((group) => Object.values(group.endpoints).flatMap(abilitiesOf))
    expect(needed.length).toBeGreaterThan(40)
    expect([...new Set(needed)].filter((ability) => !introduced.includes(ability as never))).toEqual([])
  })

  it.effect("have each repository on the in-memory store, with spans", () =>
    Effect.gen(function*() {
      const repositories = areas.flatMap((area): ReadonlyArray<Repository.Any> => area.repositories)
      expect(repositories.map((repository) => repository.tag.key)).toContain("SegmentsRepo")
      for (const repository of repositories) {
        const service = yield* Effect.serviceOption(repository.tag)
        expect(service._tag, repository.tag.key).toBe("Some")
      }
    }).pipe(Effect.provide(Repositories.layerMemory)))
})
