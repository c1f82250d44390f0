import type { AnchorHTMLAttributes, ComponentChildren, TargetedMouseEvent } from "preact"
import { useEffect, useState } from "preact/hooks"

/**
 * A small history router: the path picks the page (web/routes.ts), the query holds the page's state
 * (period, filters, page number), so that a reload or a shared link shows the same view. The API key
 * is never part of it.
 */
export interface Location {
  readonly path: string
  readonly query: URLSearchParams
}

const listeners = new Set<() => void>()
const notify = () => listeners.forEach((listener) => listener())
window.addEventListener("popstate", notify)

const current = (): Location => ({ path: window.location.pathname, query: new URLSearchParams(window.location.search) })

export const navigate = (to: string, options: { readonly replace?: boolean } = {}) => {
  if (to === window.location.pathname + window.location.search) return
  if (options.replace === true) history.replaceState(null, "", to)
  else history.pushState(null, "", to)
  notify()
}

export const useLocation = (): Location => {
  const [location, setLocation] = useState(current)
  useEffect(() => {
    const listener = () => setLocation(current())
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }, [])
  return location
}

/** `path?query`, leaving out empty values. */
export const href = (path: string, query: Readonly<Record<string, string | number | undefined | null>> = {}) => {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(name, String(value))
  }
  const text = params.toString()
  return text === "" ? path : `${path}?${text}`
}

/** The current query with some parameters changed (undefined or "" removes one). */
export const withQuery = (location: Location, changes: Readonly<Record<string, string | number | undefined | null>>) => {
  const params = new URLSearchParams(location.query)
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === null || value === "") params.delete(name)
    else params.set(name, String(value))
  }
  const text = params.toString()
  return text === "" ? location.path : `${location.path}?${text}`
}

/** A link that changes page without reloading (a modified or middle click still opens a new tab). */
export const Link = (props: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly href: string; readonly children?: ComponentChildren }) => {
  const onClick = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(props.href)
  }
  return <a {...props} onClick={onClick} />
}
