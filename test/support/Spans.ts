import { Effect, Tracer } from "effect"

/** A span as a test reads it: its name, its attributes, and the names of the spans it runs within. */
export interface RecordedSpan {
  readonly name: string
  readonly attributes: Record<string, unknown>
  readonly ancestors: ReadonlyArray<string>
}

const ancestorsOf = (span: Tracer.AnySpan): Array<string> => {
  const names: Array<string> = []
  let parent = span._tag === "Span" ? span.parent : undefined
  while (parent !== undefined && parent._tag === "Some") {
    const current: Tracer.AnySpan = parent.value
    if (current._tag !== "Span") break
    names.push(current.name)
    parent = current.parent
  }
  return names
}

/**
 * Runs an effect with the tracer on and records the spans it makes (the process's own tracer off in
 * tests, as it is in production without an OTLP endpoint): what a trace exporter would receive.
 */
export const recordingSpans = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const spans: Array<Tracer.Span> = []
    const base = yield* Effect.tracer
    const tracer = Tracer.make({
      span: (...args) => {
        const span = base.span(...args)
        spans.push(span)
        return span
      },
      context: base.context
    })
    const value = yield* effect.pipe(Effect.withTracer(tracer), Effect.withTracerEnabled(true))
    const recorded: Array<RecordedSpan> = spans.map((span) => ({
      name: span.name,
      attributes: Object.fromEntries(span.attributes),
      ancestors: ancestorsOf(span)
    }))
    return { value, spans: recorded }
  })

/** The recorded spans of this name. */
export const spansNamed = (spans: ReadonlyArray<RecordedSpan>, name: string) => spans.filter((span) => span.name === name)
