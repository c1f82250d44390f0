/**
 * The untracked rivals of the simulated platform (docs/simulated.md): made-up brand names the simulated
 * answers name beside the project's brands, in lists and bold, with variants, so that a demo project
 * shows brand suggestions (docs/suggestions.md). Data only; the names are invented for the demo.
 *
 * `weight` makes some recur more than others, as real answers do: the first few pass the suggestions'
 * gate in a demo of a few days, the last rarely.
 */

export interface SimulatedRival {
  /** The name, then the other spellings answers use (one key for suggestions: `HubSpot CRM` is HubSpot). */
  readonly spellings: ReadonlyArray<string>
  readonly weight: number
}

export const simulatedRivals: ReadonlyArray<SimulatedRival> = [
  { spellings: ["Harborline", "Harborline CRM"], weight: 5 },
  { spellings: ["Brightline", "Brightline Suite"], weight: 4 },
  { spellings: ["Quillmark"], weight: 3 },
  { spellings: ["TallyHub", "Tallyhub"], weight: 2 },
  { spellings: ["Corvid Labs", "Corvid"], weight: 1 }
]

/** The chance that an answer names rivals at all, and the most it names. */
export const RIVAL_CHANCE = 0.6
export const MAX_RIVALS = 2

/** A line on a rival, `{r}` for its name: no word the sentiment lexicon scores (they carry no opinion). */
export const rivalSentences: ReadonlyArray<string> = [
  "{r} is another name that comes up in comparisons.",
  "{r} is often listed next to the options above.",
  "Some teams also shortlist {r}.",
  "{r} targets a similar audience with a different pricing model.",
  "You may also come across {r} in recent roundups."
]
