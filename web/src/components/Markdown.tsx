import type { Definition, Nodes } from "mdast"
import type { ComponentChildren } from "preact"
import { parseMarkdown, safeUrl } from "../markdown.ts"

export interface MarkdownProps {
  readonly source: string
  /** Draws a run of plain text; `inLink` when it is a link's own text (which must hold no other link). */
  readonly text: (value: string, inLink: boolean) => ComponentChildren
  /** Draws a link to a safe `url` around its drawn text. */
  readonly link: (url: string, children: ComponentChildren) => ComponentChildren
}

/**
 * An answer's markdown (web/src/markdown.ts) drawn as elements, never as HTML: raw HTML shows as its
 * text, a link with an unsafe address as its text alone, an image as a link to it (never loaded). The
 * page decides how text and links look (brand marks, citation numbers).
 */
export const Markdown = ({ source, text, link }: MarkdownProps) => {
  const root = parseMarkdown(source)
  const definitions = new Map<string, Definition>()
  const collect = (node: Nodes) => {
    if (node.type === "definition") definitions.set(node.identifier, node)
    if ("children" in node) for (const child of node.children) collect(child)
  }
  collect(root)

  /** Where a node sits: in a link's text, in a tight list item (no paragraph spacing), among blocks. */
  interface Place {
    readonly inLink: boolean
    readonly tight: boolean
    readonly block: boolean
  }
  const draw = (node: Nodes, key: number, place: Place): ComponentChildren => {
    const { inLink, tight } = place
    const children = (of: { readonly children: ReadonlyArray<Nodes> }, within: Partial<Place> = {}) =>
      of.children.map((child, index) => draw(child, index, { inLink, tight: false, block: false, ...within }))
    const blocks = (of: { readonly children: ReadonlyArray<Nodes> }) => children(of, { block: true })
    const linked = (url: string, content: ComponentChildren) => {
      const safe = safeUrl(url)
      // An unsafe link is its text alone: nothing to click.
      return safe === null || inLink ? <span key={key} class="md-unlinked">{content}</span> : <span key={key}>{link(safe, content)}</span>
    }
    switch (node.type) {
      case "root":
        return <>{blocks(node)}</>
      case "paragraph":
        // A tight list's items hold their text without paragraph spacing.
        return tight ? <>{children(node)}</> : <p key={key}>{children(node)}</p>
      case "heading": {
        // Inside the answer's card (an h2), its headings start at h3.
        const Tag = (["h3", "h4", "h5", "h6", "h6", "h6"] as const)[node.depth - 1]!
        return <Tag key={key}>{children(node)}</Tag>
      }
      case "thematicBreak":
        return <hr key={key} />
      case "blockquote":
        return <blockquote key={key}>{blocks(node)}</blockquote>
      case "list": {
        const items = node.children.map((item, index) => draw(item, index, { inLink, tight: node.spread !== true, block: true }))
        return node.ordered === true
          ? <ol key={key} start={node.start ?? 1}>{items}</ol>
          : <ul key={key}>{items}</ul>
      }
      case "listItem":
        return (
          <li key={key}>
            {node.checked === true ? "☑ " : node.checked === false ? "☐ " : ""}
            {node.children.map((child, index) => draw(child, index, { inLink, tight: tight && node.spread !== true, block: true }))}
          </li>
        )
      case "code":
        return <pre key={key}><code>{node.value}</code></pre>
      case "html":
        // Raw HTML is shown as the text it is, never interpreted: a paragraph of its own among blocks.
        return place.block ? <p key={key} class="md-raw">{node.value}</p> : <span key={key} class="md-raw">{node.value}</span>
      case "table":
        return (
          <div key={key} class="table-wrap">
            <table class="md-table">
              <thead>
                {node.children.slice(0, 1).map((row, index) => (
                  <tr key={index}>{row.children.map((cell, column) => <th key={column} scope="col" class={alignClass(node.align?.[column])}>{children(cell)}</th>)}</tr>
                ))}
              </thead>
              <tbody>
                {node.children.slice(1).map((row, index) => (
                  <tr key={index}>{row.children.map((cell, column) => <td key={column} class={alignClass(node.align?.[column])}>{children(cell)}</td>)}</tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      case "text":
        return <span key={key}>{text(node.value, inLink)}</span>
      case "emphasis":
        return <em key={key}>{children(node)}</em>
      case "strong":
        return <strong key={key}>{children(node)}</strong>
      case "delete":
        return <del key={key}>{children(node)}</del>
      case "inlineCode":
        return <code key={key}>{node.value}</code>
      case "break":
        return <br key={key} />
      case "link":
        return linked(node.url, children(node, { inLink: true }))
      case "linkReference": {
        const definition = definitions.get(node.identifier)
        // `[1]` with a definition `[1]: url` shows as written, linked to its address.
        const content = node.referenceType === "full" ? children(node, { inLink: true }) : <>[{children(node, { inLink: true })}]</>
        return definition === undefined ? <span key={key}>{content}</span> : linked(definition.url, content)
      }
      case "image":
        return linked(node.url, <>Image: {node.alt === null || node.alt === undefined || node.alt === "" ? node.url : node.alt}</>)
      case "imageReference": {
        const definition = definitions.get(node.identifier)
        const content = <>Image: {node.alt ?? node.label ?? ""}</>
        return definition === undefined ? <span key={key}>{content}</span> : linked(definition.url, content)
      }
      case "footnoteReference":
        return <sup key={key}>[{node.label ?? node.identifier}]</sup>
      case "footnoteDefinition":
        return <div key={key} class="md-footnote">[{node.label ?? node.identifier}] {blocks(node)}</div>
      case "definition":
        return null
      default:
        return "children" in node ? <>{children(node as { readonly children: ReadonlyArray<Nodes> })}</> : null
    }
  }
  return <>{draw(root, 0, { inLink: false, tight: false, block: true })}</>
}

const alignClass = (align: "left" | "right" | "center" | null | undefined) => (align === "right" ? "num" : align === "center" ? "center" : undefined)
