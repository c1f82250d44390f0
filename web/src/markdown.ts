import type { Nodes, Root } from "mdast"
import { fromMarkdown } from "mdast-util-from-markdown"
import { gfmFromMarkdown } from "mdast-util-gfm"
import { gfm } from "micromark-extension-gfm"

/**
 * Answers as the platforms write them: markdown (CommonMark with GitHub's tables, strikethrough, task
 * lists and bare links), parsed by micromark into a syntax tree (mdast), which components/Markdown.tsx
 * draws as Preact elements and `plainText` reads for snippets. No HTML string ever reaches the page:
 * raw HTML in an answer is shown as the text it is, and a link or image keeps its address only for the
 * protocols of `safeUrl`.
 */
export const parseMarkdown = (source: string): Root =>
  fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] })

/** The protocols a link of an answer may keep; any other (javascript:, data:, a relative path) is dropped. */
const allowedProtocols = new Set(["http:", "https:", "mailto:"])

/** `url` when it is absolute with an allowed protocol, otherwise null. */
export const safeUrl = (url: string): string | null => {
  try {
    return allowedProtocols.has(new URL(url).protocol) ? url : null
  } catch {
    return null
  }
}

/** The text of an answer's markdown, without its syntax, blocks joined by a space (for a snippet). */
export const plainText = (source: string): string => {
  const parts: Array<string> = []
  const walk = (node: Nodes) => {
    switch (node.type) {
      case "text":
      case "inlineCode":
        parts.push(node.value)
        return
      case "code":
      case "html":
        // A block of its own, or a tag: a space after it keeps it apart from the next words.
        parts.push(node.value, " ")
        return
      case "image":
        parts.push(node.alt ?? "")
        return
      case "break":
        parts.push(" ")
        return
      case "definition":
        return
    }
    if ("children" in node) {
      for (const child of node.children) walk(child)
      // Blocks and table cells end with a space, so that their words do not run together.
      if (node.type !== "root" && !isPhrasing(node)) parts.push(" ")
    }
  }
  walk(parseMarkdown(source))
  return parts.join("").replace(/\s+/g, " ").trim()
}

const phrasing = new Set(["emphasis", "strong", "delete", "link", "linkReference", "footnoteReference"])
const isPhrasing = (node: Nodes) => phrasing.has(node.type)

