import { Schema } from "effect"

/** The AI platforms the service knows (docs/api.md). */
export const platforms = [
  "chatgpt",
  "perplexity",
  "gemini",
  "grok",
  "copilot",
  "claude",
  "google_ai_mode",
  "google_ai_overview"
] as const

export type Platform = (typeof platforms)[number]

export const Platform = Schema.Literal(...platforms).annotations({
  identifier: "Platform",
  description: "One of the eight AI platforms the service monitors."
})
