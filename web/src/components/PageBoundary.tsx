import { Component, type ComponentChildren } from "preact"

/**
 * Keeps a failure of one page from blanking the whole dashboard: the page is replaced by a message,
 * the menu stays. The error goes to the console too (the browser tests fail on it).
 */
export class PageBoundary extends Component<{ readonly children: ComponentChildren }, { readonly error: Error | undefined }> {
  override state = { error: undefined as Error | undefined }

  override componentDidCatch(error: Error) {
    console.error(`Page error: ${error.message}`)
    this.setState({ error })
  }

  override render() {
    if (this.state.error === undefined) return this.props.children
    return (
      <div class="notice notice-error" role="alert">
        This page failed to draw: {this.state.error.message}. <button type="button" class="link" onClick={() => location.reload()}>Reload</button>
      </div>
    )
  }
}
