import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Cache, Duration, Effect, Exit, Option } from "effect"

/**
 * The real URLs behind Gemini's grounding links. The Gemini API gives every grounding chunk's `uri` as a
 * redirect through `vertexaisearch.cloud.google.com` (googleapis/python-genai#1512), and `web.domain` is
 * not filled on the Gemini API (js-genai `src/types.ts`, `GroundingChunkWeb`): stored as given, every
 * Gemini citation would be Google's.
 *
 * A link is resolved by asking Google's redirect host for it without following the redirect: a `HEAD`
 * (a `GET` whose body is never read when `HEAD` is refused), whose `Location` is the real URL. The page
 * itself is never requested, and no request ever goes anywhere but to the redirect host: a redirect
 * naming another host, an internal address included, is read, never followed. A redirect to the
 * redirect host itself is followed, up to `MAX_HOPS` and never twice to the same link (a loop).
 *
 * Results are cached (a link resolved is remembered a day, a failure a few minutes). When a link cannot
 * be resolved (unreachable, no redirect, a loop), the chunk's `title`, which the Gemini API fills with
 * the page's domain, stands for it as `https://<domain>/`; without one, the source is dropped.
 */

export const GOOGLE_REDIRECT_ORIGIN = "https://vertexaisearch.cloud.google.com"

/** Redirects followed on the redirect host before giving up. */
const MAX_HOPS = 5

/** One request's time limit. */
const REQUEST_TIMEOUT = Duration.seconds(5)

const CACHE_CAPACITY = 10_000

/** Lower-case DNS names with a dot, as Gemini puts them in a chunk's title (`hubspot.com`). */
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i

export interface RedirectResolver {
  /** The real URL of a chunk, or none when neither the link nor the title gives one. */
  readonly resolve: (uri: string, title: string | undefined) => Effect.Effect<Option.Option<string>>
}

const parse = (value: string, base?: string): URL | undefined => {
  try {
    return new URL(value, base)
  } catch {
    return undefined
  }
}

const isWeb = (url: URL) => url.protocol === "https:" || url.protocol === "http:"

/** The chunk's title as a URL, when it is a domain. */
export const titleUrl = (title: string | undefined): Option.Option<string> => {
  const host = title?.trim().toLowerCase()
  return host !== undefined && HOSTNAME.test(host) ? Option.some(`https://${host}/`) : Option.none()
}

export const makeRedirectResolver = (
  options: { readonly origin?: string | undefined } = {}
): Effect.Effect<RedirectResolver, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const origin = parse(options.origin ?? GOOGLE_REDIRECT_ORIGIN)?.origin ?? GOOGLE_REDIRECT_ORIGIN

    /** The `Location` of one link, asked without following it; none when there is no redirect. */
    const locationOf = (url: URL): Effect.Effect<Option.Option<string>> => {
      const ask = (method: "HEAD" | "GET") =>
        client.execute(HttpClientRequest.make(method)(url.href)).pipe(
          // The response's body is never read: the scope closes it unread.
          Effect.map((response) => ({ status: response.status, location: response.headers["location"] })),
          Effect.scoped
        )
      return ask("HEAD").pipe(
        Effect.flatMap((reply) => reply.status === 405 || reply.status === 501 ? ask("GET") : Effect.succeed(reply)),
        Effect.map((reply) =>
          reply.status >= 300 && reply.status < 400 && reply.location !== undefined ? Option.some(reply.location) : Option.none()
        ),
        Effect.timeout(REQUEST_TIMEOUT),
        // fetch follows redirects unless told not to; Node's undici client never does.
        Effect.provideService(FetchHttpClient.RequestInit, { redirect: "manual" }),
        Effect.locally(HttpClient.currentTracerDisabledWhen, () => true),
        Effect.orElseSucceed(() => Option.none())
      )
    }

    /** Follows a link on the redirect host until it leaves it. */
    const follow = (url: URL, seen: ReadonlySet<string>): Effect.Effect<Option.Option<string>> =>
      Effect.flatMap(locationOf(url), (location) => {
        if (Option.isNone(location)) return Effect.succeed(Option.none())
        const next = parse(location.value, url.href)
        if (next === undefined || !isWeb(next)) return Effect.succeed(Option.none())
        if (next.origin !== origin) return Effect.succeed(Option.some(next.href))
        if (seen.has(next.href) || seen.size >= MAX_HOPS) return Effect.succeed(Option.none())
        return follow(next, new Set([...seen, next.href]))
      })

    const cache = yield* Cache.makeWith({
      capacity: CACHE_CAPACITY,
      lookup: (uri: string) => {
        const url = parse(uri)
        return url === undefined ? Effect.succeed(Option.none<string>()) : follow(url, new Set([url.href]))
      },
      timeToLive: (exit) =>
        Exit.isSuccess(exit) && Option.isSome(exit.value) ? Duration.days(1) : Duration.minutes(5)
    })

    const resolve = (uri: string, title: string | undefined): Effect.Effect<Option.Option<string>> => {
      const url = parse(uri)
      if (url === undefined || !isWeb(url)) return Effect.succeed(titleUrl(title))
      // Not a redirect link: already the page's own URL.
      if (url.origin !== origin) return Effect.succeed(Option.some(uri))
      return Effect.map(cache.get(url.href), (resolved) => Option.orElse(resolved, () => titleUrl(title)))
    }
    return { resolve }
  })
