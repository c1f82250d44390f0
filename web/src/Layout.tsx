import { Logo } from "./components/Logo.tsx"
import type { ComponentType } from "preact"
import { useEffect, useRef } from "preact/hooks"
import type { Page } from "../routes.ts"
import { PageBoundary } from "./components/PageBoundary.tsx"
import { Answer } from "./pages/Answer.tsx"
import { Answers } from "./pages/Answers.tsx"
import { Collector } from "./pages/Collector.tsx"
import { Keys } from "./pages/Keys.tsx"
import { NoProject } from "./pages/NoProject.tsx"
import { Overview } from "./pages/Overview.tsx"
import { Prompts } from "./pages/Prompts.tsx"
import { Setup } from "./pages/Setup.tsx"
import { Sources } from "./pages/Sources.tsx"
import { Link, type Location } from "./router.tsx"
import { useSession } from "./session-context.tsx"

export interface PageProps {
  readonly location: Location
  readonly params: Record<string, string>
}

const nav: ReadonlyArray<{ readonly href: string; readonly label: string; readonly pages: ReadonlyArray<Page> }> = [
  { href: "/", label: "Overview", pages: ["overview"] },
  { href: "/prompts", label: "Prompts", pages: ["prompts"] },
  { href: "/sources", label: "Sources", pages: ["sources"] },
  { href: "/answers", label: "Answers", pages: ["answers", "answer"] },
  { href: "/collector", label: "Collector", pages: ["collector"] },
  { href: "/setup", label: "Setup", pages: ["setup", "setupSection"] },
  { href: "/keys", label: "Keys", pages: ["keys"] }
]

const pages: Readonly<Record<Exclude<Page, "signIn">, ComponentType<PageProps>>> = {
  overview: Overview,
  prompts: Prompts,
  sources: Sources,
  answers: Answers,
  answer: Answer,
  collector: Collector,
  setup: Setup,
  setupSection: Setup,
  keys: Keys
}

/** Pages that need no project: the keys belong to the organization. */
const withoutProject: ReadonlySet<Page> = new Set(["keys"])

const titles: Readonly<Record<Exclude<Page, "signIn">, string>> = {
  overview: "Overview",
  prompts: "Prompts",
  sources: "Sources",
  answers: "Answers",
  answer: "Answer",
  collector: "Collector",
  setup: "Setup",
  setupSection: "Setup",
  keys: "API keys"
}

/**
 * The frame of every signed-in page: a skip link, the project switcher, who is signed in, sign-out,
 * the main navigation, and the page. Focus moves to the page on each change of page, as a full page
 * load would.
 */
export const Layout = ({ location, route }: {
  readonly location: Location
  readonly route: { readonly page: Page; readonly params: Record<string, string> } | undefined
}) => {
  const session = useSession()
  const main = useRef<HTMLElement>(null)
  const page = route === undefined || route.page === "signIn" ? undefined : route.page
  const first = useRef(true)
  useEffect(() => {
    document.title = `${page === undefined ? "Not found" : titles[page]} · Brand Visibility Monitor`
    if (first.current) {
      first.current = false
      return
    }
    main.current?.focus()
  }, [location.path])

  const Page = page === undefined ? undefined : pages[page]
  return (
    <div class="app">
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="topbar">
        <Logo />
        <span class="product">Brand Visibility Monitor</span>
        <label class="project-switcher">
          <span>Project</span>
          <select
            value={session.projectId === null ? "" : String(session.projectId)}
            disabled={session.me.projects.length === 0}
            onChange={(event) => session.setProject(Number(event.currentTarget.value))}
          >
            {session.me.projects.length === 0 && <option value="">No project</option>}
            {session.me.projects.map((project) => <option key={project.id} value={String(project.id)}>{project.name}</option>)}
          </select>
        </label>
        <span class="whoami">
          {session.me.organization.name} · key <strong>{session.me.key.name}</strong> <code>{session.me.key.prefix}…</code>
        </span>
        <button type="button" class="signout" onClick={() => session.signOut()}>Sign out</button>
      </header>
      <div class="shell">
        <nav class="sidenav" aria-label="Main">
          <ul>
            {nav.map((item) => {
              const current = page !== undefined && item.pages.includes(page)
              return (
                <li key={item.href}>
                  <Link href={item.href} aria-current={current ? "page" : undefined}>{item.label}</Link>
                </li>
              )
            })}
          </ul>
          <p class="docs-link"><a href="/docs">API reference</a></p>
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          {Page === undefined
            ? (
              <>
                <h1>Page not found</h1>
                <p>There is no page at this address. <Link href="/">Go to the overview</Link>.</p>
              </>
            )
            : session.projectId === null && !withoutProject.has(page!)
            ? <NoProject />
            : <PageBoundary key={`${session.projectId}:${page}`}><Page location={location} params={route!.params} /></PageBoundary>}
        </main>
      </div>
    </div>
  )
}
