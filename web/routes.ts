/**
 * The dashboard's pages, by path. Shared by the browser (which page to draw) and the server (which
 * paths answer the dashboard's HTML, so that a reload of any page works). `:name` is one path segment.
 * Nothing here may live under /api, /docs, /health or /ready, which are the server's.
 */
export const pages = {
  overview: "/",
  signIn: "/sign-in",
  prompts: "/prompts",
  sources: "/sources",
  answers: "/answers",
  answer: "/answers/:id",
  collector: "/collector",
  setup: "/setup",
  setupSection: "/setup/:section",
  keys: "/keys"
} as const

export type Page = keyof typeof pages

/** The path parameters of `pattern` when `path` matches it, else undefined. */
export const matchPath = (pattern: string, path: string): Record<string, string> | undefined => {
  const wanted = pattern.split("/")
  const given = path.replace(/\/+$/, "").split("/")
  if (pattern === "/") return path === "/" || path === "" ? {} : undefined
  if (wanted.length !== given.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < wanted.length; i++) {
    const segment = wanted[i]!
    const value = given[i]!
    if (segment.startsWith(":")) {
      if (value === "") return undefined
      try {
        params[segment.slice(1)] = decodeURIComponent(value)
      } catch {
        return undefined // a malformed escape (`%E0`) names no page
      }
    } else if (segment !== value) return undefined
  }
  return params
}

/** The page a path shows, with its parameters; undefined for a path that is no page. */
export const pageOf = (path: string): { readonly page: Page; readonly params: Record<string, string> } | undefined => {
  for (const [page, pattern] of Object.entries(pages) as Array<[Page, string]>) {
    const params = matchPath(pattern, path)
    if (params !== undefined) return { page, params }
  }
  return undefined
}
