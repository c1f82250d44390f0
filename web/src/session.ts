/**
 * The signed-in key and chosen project, kept in sessionStorage: they last as long as the tab, are
 * never written to localStorage, a cookie or a URL, and are dropped on sign-out.
 */
const KEY = "bvm.key"
const PROJECT = "bvm.project"

export const storedKey = (): string | null => sessionStorage.getItem(KEY)

export const storedProject = (): number | null => {
  const value = Number(sessionStorage.getItem(PROJECT))
  return Number.isInteger(value) && value > 0 ? value : null
}

export const storeKey = (key: string) => sessionStorage.setItem(KEY, key)

export const storeProject = (project: number | null) =>
  project === null ? sessionStorage.removeItem(PROJECT) : sessionStorage.setItem(PROJECT, String(project))

export const clearSession = () => {
  sessionStorage.removeItem(KEY)
  sessionStorage.removeItem(PROJECT)
}
