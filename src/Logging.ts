import { Effect, Layer, Logger } from "effect"
import { Settings } from "./Config.ts"

/** Structured logs: one JSON object per line on stdout, at `LOG_LEVEL` and above. */
export const LoggingLive = Layer.unwrapEffect(Effect.map(Settings, (settings) =>
  Layer.merge(Logger.json, Logger.minimumLogLevel(settings.logLevel))
))
