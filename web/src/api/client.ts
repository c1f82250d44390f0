import type { Paginated } from "./types.ts"

/** The body of an error answer: a message, and field errors for a 422. */
export interface ErrorBody {
  readonly message: string
  readonly errors?: Readonly<Record<string, ReadonlyArray<string>>>
  readonly required_ability?: string
}

/** A failed request: the API's status and error body (status 0: the server could not be reached). */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ErrorBody) {
    super(body.message)
  }
}

type Scalar = string | number | boolean
/** Query parameters; an array goes out as `name[]=a&name[]=b`, undefined and null are left out. */
export type Query = Readonly<Record<string, Scalar | ReadonlyArray<Scalar> | undefined | null>>

export const queryString = (query: Query | undefined): string => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue
    if (Array.isArray(value)) for (const item of value) params.append(`${name}[]`, String(item))
    else params.append(name, String(value))
  }
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

export interface RequestOptions {
  readonly query?: Query
  readonly body?: unknown
  /** Send Service-Project-Id (every project-scoped endpoint). */
  readonly project?: boolean
  readonly signal?: AbortSignal
}

export interface Client {
  readonly request: <T>(method: string, path: string, options?: RequestOptions) => Promise<T>
  readonly get: <T>(path: string, options?: RequestOptions) => Promise<T>
  /** Every page of a list, following `links.next` (at most `maxPages` pages of 100). */
  readonly all: <T>(path: string, options?: RequestOptions & { readonly maxPages?: number }) => Promise<ReadonlyArray<T>>
}

/**
 * A client of /api/v1 for one key. The key goes in the Authorization header only (never in a URL);
 * any 401 calls `onUnauthenticated` (the key was revoked, expired or is unknown) before failing.
 */
export const makeClient = (
  key: string,
  projectId: () => number | null,
  onUnauthenticated: (error: ApiError) => void
): Client => {
  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<T> => {
    const headers: Record<string, string> = { accept: "application/json", authorization: `Bearer ${key}` }
    const project = projectId()
    if (options.project === true && project !== null) headers["service-project-id"] = String(project)
    if (options.body !== undefined) headers["content-type"] = "application/json"
    let response: globalThis.Response
    try {
      response = await fetch(`/api/v1${path}${queryString(options.query)}`, {
        method,
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
        credentials: "omit",
        referrerPolicy: "no-referrer",
        signal: options.signal ?? null
      })
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === "AbortError") throw cause
      throw new ApiError(0, { message: "The server could not be reached." })
    }
    if (response.status === 204) return undefined as T
    const text = await response.text()
    let body: unknown
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    if (!response.ok) {
      const error = new ApiError(
        response.status,
        typeof body === "object" && body !== null && typeof (body as ErrorBody).message === "string"
          ? body as ErrorBody
          : { message: `The server answered ${response.status}.` }
      )
      if (response.status === 401) onUnauthenticated(error)
      throw error
    }
    return body as T
  }
  const get = <T>(path: string, options?: RequestOptions) => request<T>("GET", path, options)
  const all = async <T>(path: string, options: RequestOptions & { readonly maxPages?: number } = {}) => {
    const rows: Array<T> = []
    for (let page = 1; page <= (options.maxPages ?? 10); page++) {
      const answer = await get<Paginated<T>>(path, { ...options, query: { ...options.query, per_page: 100, page } })
      rows.push(...answer.data)
      if (answer.links.next === null) break
    }
    return rows
  }
  return { request, get, all }
}
