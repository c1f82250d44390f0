import { useEffect, useMemo, useState } from "preact/hooks"
import { pageOf } from "../routes.ts"
import { makeClient } from "./api/client.ts"
import { checkKey, refusedMessage } from "./auth.ts"
import type { Me } from "./api/types.ts"
import { Layout } from "./Layout.tsx"
import { forgetShared } from "./load.ts"
import { SignIn } from "./pages/SignIn.tsx"
import { navigate, useLocation } from "./router.tsx"
import { clearSession, storedKey, storedProject, storeKey, storeProject } from "./session.ts"
import { type Session, SessionContext } from "./session-context.tsx"

type State =
  | { readonly phase: "checking" }
  | { readonly phase: "signed-out"; readonly message?: string }
  | { readonly phase: "signed-in"; readonly key: string; readonly me: Me; readonly projectId: number | null }

/** The project to open: the one chosen before in this tab if the key still reaches it, else the first. */
const initialProject = (me: Me): number | null => {
  const stored = storedProject()
  if (stored !== null && me.projects.some((project) => project.id === stored)) return stored
  return me.projects[0]?.id ?? null
}

/**
 * Where to go after signing in: `next` when it is a path of this dashboard, else `/`. A browser reads
 * `/\evil.example/` (or `/<tab>/evil.example`) as `//evil.example/`, another site: such a `next` made
 * the navigation throw and the page stay blank.
 */
const safeNext = (next: string | null): string => {
  if (next === null || !next.startsWith("/") || /[\\\u0000-\u001f\u007f]/.test(next)) return "/"
  const url = new URL(next, window.location.origin)
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : "/"
}

/**
 * The dashboard: signed out, it shows the sign-in page whatever the path (and comes back to that path
 * after signing in); signed in, the page of the path. Any 401 signs out with a message saying why.
 */
export const App = () => {
  const [state, setState] = useState<State>(() => (storedKey() === null ? { phase: "signed-out" } : { phase: "checking" }))
  const location = useLocation()

  const signOut = (message?: string) => {
    clearSession()
    forgetShared()
    setState(message === undefined ? { phase: "signed-out" } : { phase: "signed-out", message })
  }

  const signIn = (key: string, me: Me) => {
    storeKey(key)
    const projectId = initialProject(me)
    storeProject(projectId)
    forgetShared()
    setState({ phase: "signed-in", key, me, projectId })
  }

  // A key kept from before a reload is checked again.
  useEffect(() => {
    if (state.phase !== "checking") return
    const key = storedKey()!
    checkKey(key).then(
      (result) => ("me" in result ? signIn(key, result.me) : signOut(result.message)),
      () => signOut("The server could not be reached.")
    )
  }, [])

  // Signed out, the address says so; signed in, /sign-in goes back where the user was going.
  useEffect(() => {
    if (state.phase === "signed-out" && location.path !== "/sign-in") {
      const query = location.query.toString()
      const next = query === "" ? location.path : `${location.path}?${query}`
      navigate(next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`, { replace: true })
    }
    if (state.phase === "signed-in" && location.path === "/sign-in") {
      navigate(safeNext(location.query.get("next")), { replace: true })
    }
  }, [state.phase, location.path])

  const session = useMemo<Session | null>(() => {
    if (state.phase !== "signed-in") return null
    const client = makeClient(state.key, () => state.projectId, () => signOut(refusedMessage))
    return {
      client,
      me: state.me,
      projectId: state.projectId,
      setProject: (id) => {
        storeProject(id)
        setState({ ...state, projectId: id })
      },
      signOut,
      refresh: async () => {
        const result = await checkKey(state.key)
        if (!("me" in result)) return signOut(result.message)
        const projectId = result.me.projects.some((project) => project.id === state.projectId) ? state.projectId : result.me.projects[0]?.id ?? null
        storeProject(projectId)
        setState({ phase: "signed-in", key: state.key, me: result.me, projectId })
      },
      can: (ability) => state.me.abilities.includes(ability)
    }
  }, [state])

  if (state.phase === "checking") return <p class="loading" role="status">Checking your key…</p>
  if (state.phase === "signed-out" || session === null) {
    return <SignIn message={state.phase === "signed-out" ? state.message : undefined} onSignedIn={signIn} />
  }
  // Signed in on /sign-in, the effect above is about to go where the user was going: the frame is
  // drawn there first, so that page counts as the first one (focus at the top, as after a page load).
  if (location.path === "/sign-in") return null
  const route = pageOf(location.path)
  return (
    <SessionContext.Provider value={session}>
      <Layout location={location} route={route} />
    </SessionContext.Provider>
  )
}
