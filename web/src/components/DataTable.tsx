import type { ComponentChildren } from "preact"

export interface Column<Row> {
  readonly label: string
  readonly render: (row: Row) => ComponentChildren
  readonly numeric?: boolean
  /** The API's `sort_by` value for this column, when it can sort by it. */
  readonly sortKey?: string
  readonly class?: string
}

const classOf = (column: Column<never>) => [column.numeric === true ? "num" : "", column.class ?? ""].join(" ").trim() || undefined

export interface Sort {
  readonly by: string
  readonly order: "asc" | "desc"
}

/**
 * A table with a caption, right-aligned numbers and, for columns with a `sortKey`, header buttons that
 * sort (descending first, then ascending), announced through `aria-sort` and shown by an arrow: ↓
 * descending, ↑ ascending, ↕ sortable (not ▲ ▼: each mark of the dashboard means one thing).
 */
export const DataTable = <Row,>(props: {
  readonly caption: ComponentChildren
  readonly columns: ReadonlyArray<Column<Row>>
  readonly rows: ReadonlyArray<Row>
  readonly rowKey: (row: Row) => string | number
  readonly sort?: Sort
  readonly onSort?: (sort: Sort) => void
  readonly rowClass?: (row: Row) => string | undefined
  readonly empty?: ComponentChildren
  readonly captionHidden?: boolean
  readonly class?: string
}) => (
  <div class="table-wrap">
    <table class={props.class}>
      <caption class={props.captionHidden === true ? "visually-hidden" : undefined}>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column) => {
            const sorted = props.sort !== undefined && column.sortKey === props.sort.by
            return (
              <th
                key={column.label}
                scope="col"
                class={classOf(column)}
                aria-sort={sorted ? (props.sort!.order === "asc" ? "ascending" : "descending") : undefined}
              >
                {column.sortKey !== undefined && props.onSort !== undefined
                  ? (
                    <button
                      type="button"
                      class="sort"
                      onClick={() =>
                        props.onSort!({ by: column.sortKey!, order: sorted && props.sort!.order === "desc" ? "asc" : "desc" })}
                    >
                      {column.label}
                      <span aria-hidden="true" class="sort-mark">{sorted ? (props.sort!.order === "asc" ? " ↑" : " ↓") : " ↕"}</span>
                    </button>
                  )
                  : column.label}
              </th>
            )
          })}
        </tr>
      </thead>
      <tbody>
        {props.rows.length === 0
          ? (
            <tr>
              <td colSpan={props.columns.length} class="empty">{props.empty ?? "Nothing to show."}</td>
            </tr>
          )
          : props.rows.map((row) => (
            <tr key={props.rowKey(row)} class={props.rowClass?.(row)}>
              {props.columns.map((column, index) =>
                index === 0
                  ? <th key={column.label} scope="row" class={classOf(column)}>{column.render(row)}</th>
                  : <td key={column.label} class={classOf(column)}>{column.render(row)}</td>
              )}
            </tr>
          ))}
      </tbody>
    </table>
  </div>
)
