import type { ComponentChildren } from "preact"
import { useEffect, useRef, useState } from "preact/hooks"

/**
 * A button that asks first, in a modal dialog (the native element: focus moves into it, Escape
 * cancels, focus returns to the button).
 */
export const ConfirmButton = ({ label, title, confirmLabel, children, onConfirm, class: className = "danger", accessibleLabel }: {
  readonly label: string
  readonly title: string
  readonly confirmLabel: string
  readonly children?: ComponentChildren
  readonly onConfirm: () => Promise<void> | void
  readonly class?: string
  readonly accessibleLabel?: string
}) => {
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const dialog = useRef<HTMLDialogElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (open && dialog.current !== null && !dialog.current.open) dialog.current.showModal()
  }, [open])
  const close = () => {
    dialog.current?.close()
  }
  return (
    <>
      <button type="button" class={className} ref={button} aria-label={accessibleLabel} onClick={() => setOpen(true)}>{label}</button>
      {open && (
        <dialog
          ref={dialog}
          class="confirm"
          aria-labelledby="confirm-title"
          onClose={() => {
            setOpen(false)
            button.current?.focus()
          }}
        >
          <h2 id="confirm-title">{title}</h2>
          {children}
          <div class="actions">
            <button type="button" onClick={close} autofocus>Cancel</button>
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={async () => {
                setBusy(true)
                try {
                  await onConfirm()
                } finally {
                  setBusy(false)
                  close()
                }
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </dialog>
      )}
    </>
  )
}
