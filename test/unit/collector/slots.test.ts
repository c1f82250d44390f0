import { describe, expect, it } from "vitest"
import { dueSlots, slotEnd, slotOf } from "../../../src/Collector/Slots.ts"

const at = (iso: string) => new Date(iso)
const DAY = 86_400_000

describe("slots", () => {
  it("a daily slot is the UTC day's midnight", () => {
    expect(slotOf("daily", at("2026-11-21T23:59:59.999Z"))).toEqual(at("2026-11-21T00:00:00.000Z"))
    expect(slotOf("daily", at("2026-11-22T00:00:00.000Z"))).toEqual(at("2026-11-22T00:00:00.000Z"))
    expect(slotEnd("daily", at("2026-11-21T00:00:00.000Z"))).toEqual(at("2026-11-22T00:00:00.000Z"))
  })

  it("a weekly slot is the ISO week's Monday, Sunday included in the week before it", () => {
    // 2026-11-23 is a Monday.
    expect(slotOf("weekly", at("2026-11-23T00:00:00.000Z"))).toEqual(at("2026-11-23T00:00:00.000Z"))
    expect(slotOf("weekly", at("2026-11-25T13:00:00.000Z"))).toEqual(at("2026-11-23T00:00:00.000Z"))
    expect(slotOf("weekly", at("2026-11-29T23:59:59.999Z"))).toEqual(at("2026-11-23T00:00:00.000Z"))
    expect(slotOf("weekly", at("2026-11-22T23:59:59.999Z"))).toEqual(at("2026-11-16T00:00:00.000Z"))
    expect(slotOf("weekly", at("2027-01-01T12:00:00.000Z"))).toEqual(at("2026-12-28T00:00:00.000Z"))
  })

  it("due slots run from the later of the lookback and the monitor's last change to the current slot", () => {
    const now = at("2026-11-21T10:00:00.000Z")
    expect(dueSlots("daily", now, { since: at("2026-11-21T09:00:00.000Z"), lookbackMs: 7 * DAY })).toEqual([at("2026-11-21T00:00:00.000Z")])
    expect(dueSlots("daily", now, { since: at("2026-11-18T20:00:00.000Z"), lookbackMs: 7 * DAY }).map((d) => d.toISOString().slice(0, 10)))
      .toEqual(["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"])
    expect(dueSlots("daily", now, { since: at("2026-01-01T00:00:00.000Z"), lookbackMs: 2 * DAY })).toHaveLength(3)
    expect(dueSlots("daily", now, { since: at("2026-01-01T00:00:00.000Z"), lookbackMs: 0 })).toEqual([at("2026-11-21T00:00:00.000Z")])
    expect(dueSlots("weekly", now, { since: at("2026-11-01T00:00:00.000Z"), lookbackMs: 14 * DAY }))
      .toEqual([at("2026-11-02T00:00:00.000Z"), at("2026-11-09T00:00:00.000Z"), at("2026-11-16T00:00:00.000Z")])
  })
})
