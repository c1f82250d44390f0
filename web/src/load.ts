import { useCallback, useEffect, useRef, useState } from "preact/hooks"
import { ApiError } from "./api/client.ts"

export interface Loaded<T> {
  readonly data: T | undefined
  readonly error: ApiError | undefined
  readonly loading: boolean
  readonly reload: () => void
}

/**
 * Runs `load` when `deps` change (the previous one aborted), keeping the last data while the next
 * loads so that the page does not flicker.
 */
export const useLoad = <T>(load: (signal: AbortSignal) => Promise<T>, deps: ReadonlyArray<unknown>): Loaded<T> => {
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true
  })
  const [generation, setGeneration] = useState(0)
  const latest = useRef(load)
  latest.current = load
  useEffect(() => {
    const controller = new AbortController()
    setState((previous) => ({ ...previous, loading: true }))
    latest.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        const failure = error instanceof ApiError ? error : new ApiError(0, { message: String(error) })
        setState((previous) => ({ data: previous.data, error: failure, loading: false }))
      }
    )
    return () => controller.abort()
  }, [...deps, generation])
  const reload = useCallback(() => setGeneration((n) => n + 1), [])
  return { ...state, reload }
}

/**
 * Lists the pages share (a project's monitors, tags, prompts, brands, segments), loaded once per
 * project and dropped when Setup changes them or the project changes.
 */
const shared = new Map<string, Promise<unknown>>()

export const sharedList = <T>(key: string, load: () => Promise<T>): Promise<T> => {
  let promise = shared.get(key) as Promise<T> | undefined
  if (promise === undefined) {
    promise = load()
    promise.catch(() => shared.delete(key))
    shared.set(key, promise)
  }
  return promise
}

/** Drops the shared lists whose key starts with `prefix` (all of them without one). */
export const forgetShared = (prefix = "") => {
  for (const key of [...shared.keys()]) if (key.startsWith(prefix)) shared.delete(key)
}
