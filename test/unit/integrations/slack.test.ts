import { describe, expect, it } from "@effect/vitest"
import { evaluate } from "../../../src/Integrations/AlertRule.ts"
import { BLOCK_LIMIT, escapeSlack, HEADER_LIMIT, SECTION_LIMIT, slackMessage, type SlackMessage, truncate } from "../../../src/Integrations/SlackMessage.ts"
import { type AlertChange, standardBody, type WebhookEvent } from "../../../src/Integrations/WebhookEvents.ts"
import { weeklyDigest } from "../../../src/Integrations/WeeklyDigest.ts"
import { digestInput } from "./fixtures.ts"

/** Every text of a message, as Slack would parse it. */
const texts = (message: SlackMessage): Array<string> => [
  message.text,
  ...message.blocks.flatMap((block) => {
    switch (block.type) {
      case "header":
      case "section":
        return [block.text.text]
      case "context":
        return block.elements.map((element) => element.text)
      case "divider":
        return []
    }
  })
]

/** Checks a message against Slack's Block Kit limits. */
const expectWithinLimits = (message: SlackMessage) => {
  expect(message.blocks.length).toBeGreaterThan(0)
  expect(message.blocks.length).toBeLessThanOrEqual(BLOCK_LIMIT)
  for (const block of message.blocks) {
    if (block.type === "header") expect([...block.text.text].length).toBeLessThanOrEqual(HEADER_LIMIT)
    if (block.type === "section") expect([...block.text.text].length).toBeLessThanOrEqual(SECTION_LIMIT)
  }
}

const measured = evaluate({ metric: "visibility", condition: "drops_by", threshold: 5, windowDays: 7, significantOnly: true }, { kind: "proportion", count: 600, total: 2000 }, { kind: "proportion", count: 700, total: 2000 })

const alertData = (subjectName: string): AlertChange => ({
  project: { id: 7, name: "Acme & co" },
  alert: {
    id: 3,
    name: "Visibility drop",
    metric: "visibility",
    subject: { kind: "brand", id: 1, name: subjectName },
    condition: "drops_by",
    threshold: 5,
    window_days: 7,
    significant_only: true
  },
  window: { start_date: "2026-11-19", end_date: "2026-11-25" },
  previous_window: { start_date: "2026-11-12", end_date: "2026-11-18" },
  value: measured.value,
  previous_value: measured.previousValue,
  change: measured.change,
  interval: measured.interval,
  significant: measured.significant,
  counts: { current: measured.current, previous: measured.previous }
})

describe("Slack escaping", () => {
  it("escapes the three characters Slack asks for, ampersand first", () => {
    expect(escapeSlack("<!channel> & <https://evil|click>")).toBe("&lt;!channel&gt; &amp; &lt;https://evil|click&gt;")
    expect(escapeSlack("&lt;")).toBe("&amp;lt;")
    expect(escapeSlack("plain")).toBe("plain")
  })

  it("cuts by code points, never splitting an emoji", () => {
    expect(truncate("abcdef", 4)).toBe("abc…")
    expect(truncate("abc", 3)).toBe("abc")
    expect(truncate("😀😀😀😀", 3)).toBe("😀😀…")
  })
})

describe("alert messages", () => {
  it("says what moved, by how much, on what counts, and whether it is significant", () => {
    const message = slackMessage({ type: "alert.triggered", timestamp: "2026-11-25T10:00:00.000Z", data: alertData("Acme") })
    expectWithinLimits(message)
    expect(message.text).toBe("Alert in Acme &amp; co: Acme visibility 30% (-5 pts)")
    const all = texts(message).join("\n")
    expect(all).toContain("*Acme* visibility is *30%* (2026-11-19 to 2026-11-25), -5 pts from 35%.")
    expect(all).toContain("Rule: visibility drops by 5 pts, significant changes only. It now holds.")
    expect(all).toContain("Counts: 600 of 2000 against 700 of 2000 the 7 days before")
    expect(all).toContain(`95% interval ${measured.interval!.low}–${measured.interval!.high}%`)
    expect(all).toContain("change significant")
  })

  it("says when it is resolved", () => {
    const message = slackMessage({ type: "alert.resolved", timestamp: "2026-11-26T10:00:00.000Z", data: alertData("Acme") })
    expect(message.text.startsWith("Resolved in")).toBe(true)
    expect(texts(message).join("\n")).toContain("It no longer holds.")
  })

  it("never lets a user's name mention a channel or make a link", () => {
    const message = slackMessage({ type: "alert.triggered", timestamp: "2026-11-25T10:00:00.000Z", data: alertData("<!channel> <https://evil.example|Acme>") })
    for (const text of texts(message).slice(0, 1).concat(message.blocks.filter((block) => block.type !== "header").flatMap((block) => texts({ text: "", blocks: [block] })))) {
      expect(text).not.toMatch(/<!channel>|<https:/)
    }
    expect(message.text).toContain("&lt;!channel&gt;")
  })

  it("shows position and sentiment in their own unit", () => {
    const data: AlertChange = {
      ...alertData("Acme"),
      alert: { ...alertData("Acme").alert, metric: "average_position", condition: "above", threshold: 3, significant_only: false },
      value: 3.4,
      previous_value: 2.1,
      change: 1.3,
      interval: null,
      significant: null,
      counts: { current: { kind: "mean", sum: 340, count: 100 }, previous: { kind: "mean", sum: 210, count: 100 } }
    }
    const all = texts(slackMessage({ type: "alert.triggered", timestamp: "2026-11-25T10:00:00.000Z", data })).join("\n")
    expect(all).toContain("*Acme* average position is *3.4* (2026-11-19 to 2026-11-25), +1.3 from 2.1.")
    expect(all).toContain("Rule: average position above 3.")
    expect(all).toContain("Counts: 100 mentions against 100 mentions")
    expect(all).not.toContain("interval")
  })
})

describe("digest messages", () => {
  const digest = weeklyDigest(digestInput)
  const message = slackMessage({ type: "digest.weekly", timestamp: "2026-11-30T07:00:00.000Z", data: digest })

  it("stays within Slack's limits and escapes the project's name", () => {
    expectWithinLimits(message)
    expect(message.text).toBe("Weekly digest 2026-W48 for Acme &lt;CRM&gt; &amp; co")
  })

  it("lists the own brand first, with its interval and significance marks", () => {
    const brands = texts(message).find((text) => text.startsWith("*Brands*"))!.split("\n").slice(1)
    expect(brands[0]).toBe(`*Acme*: visibility 30% (${digest.brands[1]!.visibility_ci!.low}–${digest.brands[1]!.visibility_ci!.high}), -5 pts ✱ · share of voice 20%, -4.14 pts ✱`)
    expect(brands[1]!.startsWith("Globex: visibility 35%")).toBe(true)
    expect(brands).toHaveLength(4)
  })

  it("shows the movers with both weeks' counts, and the new sources with their rank", () => {
    const all = texts(message).join("\n")
    expect(all).toContain("▲ crm for agencies: 75% (3 of 4), +50 pts from 25% (1 of 4)")
    expect(all).toContain("▼ best crm: 30% (30 of 100), -20 pts from 50% (50 of 100) ✱")
    expect(all).toContain("#1 rising.example: cited in 55 answers (2.75%)")
    expect(all).toContain("Runs: 14 completed, 1 failed · answers: 2000 collected, 12 failed")
  })

  it("says so when a section is empty", () => {
    const empty = slackMessage({ type: "digest.weekly", timestamp: "2026-11-30T07:00:00.000Z", data: weeklyDigest({ ...digestInput, brands: [], prompts: [], sources: [] }) })
    const all = texts(empty).join("\n")
    expect(all).toContain("No brand data this week.")
    expect(all).toContain("No prompt moved.")
    expect(all).toContain("No new source in the top 10.")
  })

  it("keeps a long prompt or many brands within the limits", () => {
    const crowded = weeklyDigest({
      ...digestInput,
      brands: Array.from({ length: 200 }, (_, i) => ({ ...digestInput.brands[0]!, brand: { id: 1000 + i, name: "B".repeat(300) + i, is_own: false } })),
      prompts: [{ prompt: { id: 1, text: "x".repeat(5000) }, w: { count: 1, total: 2 }, p: { count: 0, total: 2 } }]
    })
    expectWithinLimits(slackMessage({ type: "digest.weekly", timestamp: "2026-11-30T07:00:00.000Z", data: crowded }))
  })
})

describe("other events", () => {
  it("renders a completed run and a test message", () => {
    const run: WebhookEvent = {
      type: "run.completed",
      timestamp: "2026-11-25T10:00:00.000Z",
      data: {
        project: { id: 7, name: "Acme" },
        run: { id: 9, monitor: { id: 2, name: "Daily <EU>" }, status: "partial", started_at: "2026-11-25T09:00:00.000Z", finished_at: "2026-11-25T09:40:00.000Z", responses_count: 96, failed_count: 4 }
      }
    }
    const message = slackMessage(run)
    expectWithinLimits(message)
    expect(texts(message)).toContain("Run of *Daily &lt;EU&gt;* completed with failures: 96 answers collected, 4 failed.")
    const test = slackMessage({ type: "webhook.test", timestamp: "2026-11-25T10:00:00.000Z", data: { project: { id: 1, name: "Acme" }, webhook_id: 5, message: "Hello from <the service>" } })
    expect(texts(test)).toContain("Hello from &lt;the service&gt;")
  })

  it("writes the standard envelope as compact JSON with type, timestamp and data", () => {
    const event: WebhookEvent = { type: "webhook.test", timestamp: "2026-11-25T10:00:00.000Z", data: { project: { id: 1, name: "Acme" }, webhook_id: 5, message: "hi" } }
    expect(standardBody(event)).toBe("{\"type\":\"webhook.test\",\"timestamp\":\"2026-11-25T10:00:00.000Z\",\"data\":{\"project\":{\"id\":1,\"name\":\"Acme\"},\"webhook_id\":5,\"message\":\"hi\"}}")
  })
})
