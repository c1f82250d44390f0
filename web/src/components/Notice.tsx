import type { ComponentChildren } from "preact"
import type { ApiError } from "../api/client.ts"

/** A failed request, said plainly (a missing ability names the one needed). */
export const ErrorNotice = ({ error, what }: { readonly error: ApiError; readonly what?: string }) => (
  <div class="notice notice-error" role="alert">
    {error.status === 403 && error.body.required_ability !== undefined
      ? <>This key lacks the ability <code>{error.body.required_ability}</code>{what === undefined ? "" : ` needed to ${what}`}.</>
      : <>{what === undefined ? "" : `Could not ${what}: `}{error.message}</>}
  </div>
)

export const Loading = ({ label = "Loading…" }: { readonly label?: string }) => (
  <p class="loading" role="status" aria-live="polite">{label}</p>
)

export const Notice = ({ children, kind = "info" }: { readonly children: ComponentChildren; readonly kind?: "info" | "success" | "warning" }) => (
  <div class={`notice notice-${kind}`} role={kind === "success" ? "status" : undefined}>{children}</div>
)
