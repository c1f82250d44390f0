import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { coveringUrlIndex, createTable, deltasOfResponses, deltaTables, mergeFunction, rollupsOf, upsert } from "./rollups.ts"

/**
 * Rollups per pair of tags a prompt carries, with and without the group (./rollups.ts), so that a
 * filter of several tags is answered from rollups alone, by inclusion–exclusion: the tags' rows, less
 * the rows of their pairs (docs/api.md, "Analytics"). Before, the responses counted twice were read
 * from the raw tables of the prompts carrying two of the tags: 0.4–0.6 s on the bench dataset.
 *
 * The triggers of 0003 keep these exact too: `analytics_merge` now writes them, and they count under
 * the tags the prompt carries now, as the tag rollups do. Attaching a tag adds the pairs it forms with
 * the prompt's other tags; detaching it subtracts them; a deleted tag's pairs cascade away.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const pairs = rollupsOf(["tag_pair", "tag_pair_group"])
  for (const rollup of pairs) {
    for (const statement of createTable(rollup)) yield* sql.unsafe(statement)
  }
  const rollups = [...rollupsOf(["all", "group", "tag", "tag_group"]), ...pairs]
  yield* sql.unsafe(mergeFunction(rollups, true))

  // A time series reads the days of its top URLs by URL: from the index alone (before, ~90k table pages
  // for a monitor's 90 days on the bench dataset).
  for (const rollup of rollups.filter((rollup) => rollup.counts === "source_url_id" && rollup.grain === "daily")) {
    for (const statement of coveringUrlIndex(rollup)) yield* sql.unsafe(statement)
  }

  // What is already stored, in the new tables only.
  yield* sql.unsafe(`
    DO $fn$
    DECLARE
      response_ids bigint[] := ARRAY(SELECT id FROM responses WHERE status = 'analyzed');
      only_tag bigint := NULL;
    BEGIN
      ${deltaTables}
      ${deltasOfResponses}
      ${pairs.map(upsert).join("\n")}
    END
    $fn$`)
})
