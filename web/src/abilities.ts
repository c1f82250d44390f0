/**
 * Abilities of API keys in words, for the Keys page: a person picks "Read analytics", not
 * `analytics:read`. Each is a verb and what it acts on, so that a key's list reads as short sentences
 * ("Read projects, monitors; Edit tags"). The API's own names are in docs/api.md.
 */
const words: Readonly<Record<string, readonly [verb: string, object: string]>> = {
  "organization:read": ["Read", "the organization"],
  "organization:manage": ["Rename", "the organization"],
  "projects:read": ["Read", "projects"],
  "projects:write": ["Edit", "projects"],
  "monitors:read": ["Read", "monitors"],
  "monitors:write": ["Edit and run", "monitors"],
  "prompts:read": ["Read", "prompts"],
  "prompts:write": ["Edit", "prompts"],
  "brands:read": ["Read", "brands and their mentions"],
  "brands:write": ["Edit", "brands"],
  "tags:read": ["Read", "tags"],
  "tags:write": ["Edit", "tags"],
  "segments:read": ["Read", "segments"],
  "segments:write": ["Edit", "segments"],
  "sources:read": ["Read", "sources"],
  "responses:read": ["Read", "answers"],
  "responses:write": ["Add", "answers"],
  "citations:read": ["Read", "citations"],
  "analytics:read": ["Read", "analytics"],
  "traffic:read": ["Read", "agent traffic"],
  "traffic:write": ["Upload", "agent traffic logs"],
  "keys:manage": ["Manage", "API keys"],
  "webhooks:manage": ["Manage", "webhooks"]
}

/** `*`: every ability, those to come included. */
export const everything = "Everything"

/** One ability in words: `Read analytics`; an unknown one (a newer server) as its name. */
export const abilityInWords = (ability: string) => {
  if (ability === "*") return everything
  const known = words[ability]
  return known === undefined ? ability : `${known[0]} ${known[1]}`
}

/** A key's abilities in words, grouped by verb in the order given: `Read projects, tags; Edit tags`. */
export const abilitiesInWords = (abilities: ReadonlyArray<string>) => {
  if (abilities.includes("*")) return everything
  const groups = new Map<string, Array<string>>()
  const unknown: Array<string> = []
  for (const ability of abilities) {
    const known = words[ability]
    if (known === undefined) unknown.push(ability)
    else groups.set(known[0], [...(groups.get(known[0]) ?? []), known[1]])
  }
  return [...[...groups].map(([verb, objects]) => `${verb} ${objects.join(", ")}`), ...unknown].join("; ")
}
