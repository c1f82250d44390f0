import { Schema } from "effect"
import { Platform } from "../Domain/Platform.ts"
import catalogueData from "./catalogue/agents.json" with { type: "json" }

/**
 * The agent catalogue (docs/agent-traffic.md, "The catalogue"): the AI crawlers and assistants the
 * service recognises in a site's logs, kept as data in `catalogue/agents.json` and decoded here once.
 */

/**
 * What an agent fetches pages for, as its operator documents it:
 * - `training`: collects content that may train models;
 * - `search_index`: builds the index an AI answer engine searches;
 * - `user_fetch`: fetches a page because a user asked the assistant something;
 * - `agent`: acts on the web for someone (builds or runs an agent);
 * - `search_engine`: a search engine's crawler whose index also feeds AI answers (Googlebot, bingbot);
 * - `token_only`: a robots.txt token with no user agent of its own (Google-Extended): any request
 *   carrying it claims a name the operator never sends.
 */
export const purposes = ["training", "search_index", "user_fetch", "agent", "search_engine", "token_only"] as const
export const Purpose = Schema.Literal(...purposes)
export type Purpose = typeof Purpose.Type

/**
 * How a request claiming the agent can be checked:
 * - `ip_list`: the operator publishes the addresses its agent uses; `lists` names those lists
 *   (among the catalogue's `lists`; catalogue/ip-lists.json holds our snapshots of them), and
 *   `reverse_dns` the host name suffixes it documents as a second way (kept for reference: logs are
 *   checked against the lists only, with no DNS lookup);
 * - `none`: the operator publishes nothing to check against.
 */
export const Verification = Schema.Union(
  Schema.Struct({
    method: Schema.Literal("ip_list"),
    lists: Schema.NonEmptyArray(Schema.String),
    reverse_dns: Schema.optional(Schema.Array(Schema.String))
  }),
  Schema.Struct({ method: Schema.Literal("none") })
)
export type Verification = typeof Verification.Type

export const Agent = Schema.Struct({
  /** Stable identifier, lower case (`openai-gptbot`). */
  id: Schema.String.pipe(Schema.pattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)),
  /** The user-agent token the operator documents (`GPTBot`). */
  name: Schema.NonEmptyTrimmedString,
  operator: Schema.NonEmptyTrimmedString,
  purpose: Purpose,
  /** The platforms of ours whose answers this agent's reading feeds. */
  platforms: Schema.Array(Platform),
  /** Case-insensitive substrings of the User-Agent header that identify the agent. */
  patterns: Schema.NonEmptyArray(Schema.NonEmptyTrimmedString),
  verification: Verification,
  /** The operator's page documenting the agent; `null` when the operator documents none. */
  documentation: Schema.NullOr(Schema.String),
  /** The day the documentation was last read for this entry (YYYY-MM-DD). */
  checked: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)),
  note: Schema.optional(Schema.String)
})
export type Agent = typeof Agent.Type

/** An address list an operator publishes, by the URL it publishes it at. */
export const PublishedList = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)),
  operator: Schema.NonEmptyTrimmedString,
  url: Schema.String
})
export type PublishedList = typeof PublishedList.Type

export const Catalogue = Schema.Struct({
  lists: Schema.NonEmptyArray(PublishedList),
  agents: Schema.NonEmptyArray(Agent)
})
export type Catalogue = typeof Catalogue.Type

/** The catalogue shipped with the service; a malformed file fails at start-up (and in its test). */
export const catalogue: Catalogue = Schema.decodeUnknownSync(Catalogue)(catalogueData)
