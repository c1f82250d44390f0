import type { OpenApi } from "@effect/platform"

/**
 * What the OpenAPI document says beside its operations, in one place: the server it is served by, its
 * licence, and a description for each group of operations (an OpenAPI tag, named by the group's
 * `OpenApi.Title`). Two groups of one title (the project list and a single project) share one tag.
 * A group may instead carry its own `OpenApi.Description`, as segments do, so that a new area needs no
 * line here. test/unit/openapi-lint.test.ts holds the document to Redocly's recommended rules, which a
 * group without a description fails.
 */

/** Relative: the API is on the server the document was read from, whatever its address. */
export const servers: ReadonlyArray<OpenApi.OpenAPISpecServer> = [
  { url: "/", description: "The server this document was read from." }
]

export const license: OpenApi.OpenAPISpecLicense = {
  name: "Apache-2.0",
  url: "https://www.apache.org/licenses/LICENSE-2.0"
}

export const tagDescriptions: Readonly<Record<string, string>> = {
  Identity: "The API key making the request: its organization, abilities and projects.",
  Organization: "The organization that owns the key, its projects and its other keys.",
  Projects: "A project monitors one brand's visibility: its monitors, prompts, brands and answers belong to it.",
  Monitors: "What to ask, where and how often: the platforms, the country and the schedule of a set of prompts.",
  Runs: "A monitor's runs: one per scheduled slot or manual trigger, with the state of its jobs (one per prompt and platform).",
  Collector: "Whether collector workers are alive, and which platforms they answer.",
  Prompts: "The questions a brand's buyers ask, asked of every platform of their monitor.",
  Tags: "Labels on prompts, by which the lists and the analytics filter.",
  Brands: "The project's brand and its competitors, with the names and domains that detect them in answers.",
  "Brand suggestions": "The brands the stored answers name that the project does not track, with their evidence; accept, merge, dismiss or ignore them.",
  Webhooks: "Signed HTTP callbacks (Standard Webhooks) and Slack messages when runs complete, with every delivery and attempt recorded.",
  Responses: "The platforms' answers, as collected or sent to `POST /responses`, with their citations and brand mentions.",
  Sources: "The domains and URLs that answers cite, found by the analysis of each answer.",
  "Brand mentions": "Each brand found in an answer: its position and its sentiment.",
  Analytics: "Visibility, share of voice, position, sentiment and citations over a window of days, with the counts behind every percentage.",
  "API keys": "The organization's API keys: their abilities, projects and expiry; a new key is shown once."
}

/** One tag per title, each with its description (a title not listed keeps none, and the linter says so). */
export const describeTags = <Spec extends { tags?: Array<OpenApi.OpenAPISpecTag> }>(spec: Spec): Spec => {
  const seen = new Set<string>()
  spec.tags = (spec.tags ?? [])
    .filter((tag) => !seen.has(tag.name) && seen.add(tag.name))
    .map((tag) => tagDescriptions[tag.name] === undefined ? tag : { ...tag, description: tagDescriptions[tag.name] })
  return spec
}
