import { Logo } from "../components/Logo.tsx"
import { useEffect, useRef, useState } from "preact/hooks"
import type { Me } from "../api/types.ts"
import { checkKey } from "../auth.ts"

/**
 * Sign-in with an API key, pasted once: it is checked with GET /me, then kept in this tab's
 * sessionStorage only (never in a URL or a cookie).
 */
export const SignIn = ({ message, onSignedIn }: { readonly message?: string | undefined; readonly onSignedIn: (key: string, me: Me) => void }) => {
  const [key, setKey] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  // The key field takes the focus, also when the page comes after a sign-out (autofocus only acts on load).
  useEffect(() => input.current?.focus(), [])
  const submit = async (event: Event) => {
    event.preventDefault()
    const trimmed = key.trim()
    if (trimmed === "") {
      setError("Paste an API key first.")
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      const result = await checkKey(trimmed)
      if ("me" in result) onSignedIn(trimmed, result.me)
      else setError(result.message)
    } catch {
      setError("The server could not be reached.")
    } finally {
      setBusy(false)
    }
  }
  const shown = error ?? message
  return (
    <main class="signin" id="main">
      <div class="signin-card">
        <div class="signin-brand"><Logo /> Brand Visibility Monitor</div>
        <h1>Sign in</h1>
        {shown !== undefined && <div class="notice notice-error" role="alert">{shown}</div>}
        <form onSubmit={submit} noValidate>
          <div class="field">
            <label for="api-key">API key</label>
            <input
              id="api-key"
              ref={input}
              name="api-key"
              type="password"
              autocomplete="off"
              spellcheck={false}
              placeholder="bvm_…"
              value={key}
              onInput={(event) => setKey(event.currentTarget.value)}
              aria-describedby="api-key-hint"
            />
            <small id="api-key-hint" class="hint">
              Kept in this browser tab only, until you sign out or close it. A key is made by an administrator with
              {" "}<code>npm run cli -- keys create</code>, or on the Keys page.
            </small>
          </div>
          <button type="submit" class="primary" disabled={busy}>{busy ? "Checking…" : "Sign in"}</button>
        </form>
      </div>
    </main>
  )
}
