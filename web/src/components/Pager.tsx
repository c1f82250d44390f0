import type { PageMeta } from "../api/types.ts"
import { integer } from "../format.ts"

/** The API's `&laquo; Previous` / `Next &raquo;` labels, as text. */
const labelOf = (label: string) => label.replace("&laquo;", "«").replace("&raquo;", "»")

/**
 * Page links of a list, drawn from the API's own `meta.links` (previous, numbered pages with `...`
 * gaps, next), with the range shown. `onPage` gets the page number to load.
 */
export const Pager = ({ meta, onPage, label = "Pages" }: { readonly meta: PageMeta; readonly onPage: (page: number) => void; readonly label?: string }) => {
  if (meta.total === 0) return null
  return (
    <nav class="pager" aria-label={label}>
      <span class="pager-range">
        {meta.from === null ? "No rows on this page" : `${integer(meta.from)}–${integer(meta.to)} of ${integer(meta.total)}`}
      </span>
      {meta.last_page > 1 && (
        <ul>
          {meta.links.map((link, index) => (
            <li key={index}>
              {link.page === null
                ? <span class={link.label === "..." ? "pager-gap" : "pager-disabled"} aria-hidden={link.label === "..." ? "true" : undefined}>{labelOf(link.label)}</span>
                : (
                  <button
                    type="button"
                    class={link.active ? "pager-current" : ""}
                    aria-current={link.active ? "page" : undefined}
                    aria-label={/^\d+$/.test(link.label) ? `Page ${link.label}` : undefined}
                    onClick={() => onPage(link.page!)}
                  >
                    {labelOf(link.label)}
                  </button>
                )}
            </li>
          ))}
        </ul>
      )}
    </nav>
  )
}
