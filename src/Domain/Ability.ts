import { Schema } from "effect"

/** Every ability a key may carry (docs/api.md, plus `responses:write` and `keys:manage`). */
export const abilities = [
  "organization:read",
  "organization:manage",
  "projects:read",
  "projects:write",
  "monitors:read",
  "monitors:write",
  "prompts:read",
  "prompts:write",
  "brands:read",
  "brands:write",
  "tags:read",
  "tags:write",
  "segments:read",
  "segments:write",
  "sources:read",
  "responses:read",
  "responses:write",
  "citations:read",
  "analytics:read",
  "keys:manage",
  "webhooks:manage"
] as const

export type Ability = (typeof abilities)[number]

export const Ability = Schema.Literal(...abilities)

/** `*` grants every ability. */
export const WILDCARD = "*"

/** The abilities a key grants, with `*` expanded to the full list (the form `GET /me` shows). */
export const expand = (granted: ReadonlyArray<string>): ReadonlyArray<Ability> =>
  granted.includes(WILDCARD) ? abilities : abilities.filter((ability) => granted.includes(ability))

export const grants = (granted: ReadonlyArray<string>, ability: Ability): boolean =>
  granted.includes(WILDCARD) || granted.includes(ability)
