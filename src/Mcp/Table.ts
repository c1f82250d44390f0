/** A small Markdown table: what an assistant reads best, and a person too. */
export const table = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string | number>>): string => {
  if (rows.length === 0) return "(none)"
  const cell = (value: string | number) => String(value).replace(/\|/g, "\\|").replace(/\s+/g, " ")
  return [
    `| ${head.map(cell).join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)
  ].join("\n")
}
