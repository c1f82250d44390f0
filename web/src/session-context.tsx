import { createContext } from "preact"
import { useContext } from "preact/hooks"
import type { Client } from "./api/client.ts"
import type { Brand, Me, Monitor, Project, Prompt, Segment, Tag } from "./api/types.ts"
import { forgetShared, sharedList } from "./load.ts"

/** What every signed-in page knows: the client, who is signed in, the chosen project. */
export interface Session {
  readonly client: Client
  readonly me: Me
  readonly projectId: number | null
  readonly setProject: (id: number) => void
  readonly signOut: (message?: string) => void
  /** Reads /me again (after a project was created). */
  readonly refresh: () => Promise<void>
  readonly can: (ability: string) => boolean
}

export const SessionContext = createContext<Session | null>(null)

export const useSession = (): Session => {
  const session = useContext(SessionContext)
  if (session === null) throw new Error("useSession outside a signed-in page")
  return session
}

export type SharedKind = "project" | "monitors" | "tags" | "prompts" | "brands" | "segments"

/** The chosen project's lists, shared by the pages (web/src/load.ts). */
export const projectData = (session: Session) => {
  const project = session.projectId
  const list = <T,>(kind: SharedKind, path: string) =>
    sharedList<ReadonlyArray<T>>(`${project}:${kind}`, () => session.client.all<T>(path, { project: true }))
  return {
    project: () =>
      sharedList<Project>(`${project}:project`, () =>
        session.client.get<{ data: Project }>(`/projects/${project}`).then((answer) => answer.data)),
    monitors: () => list<Monitor>("monitors", "/monitors"),
    tags: () => list<Tag>("tags", "/tags"),
    prompts: () => list<Prompt>("prompts", "/prompts"),
    brands: () => list<Brand>("brands", "/brands"),
    segments: () => list<Segment>("segments", "/segments"),
    /** After a write in Setup. */
    forget: (kind: SharedKind) => forgetShared(`${project}:${kind}`)
  }
}
