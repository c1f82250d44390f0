import { Layer, Option } from "effect"
import { Platforms } from "./Platform.ts"

/**
 * The platforms the server and the workers ask. Until the adapters (branch `collector-platforms`) are
 * wired here, no platform is configured: every job is skipped with "platform not configured", and the
 * worker says so once per platform in the log.
 */
export const layer = Layer.succeed(Platforms, Platforms.of({ client: () => Option.none() }))
