import { createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Option, Redacted } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { strictPolicy } from "../../src/Integrations/OutboundUrl.ts"
import { send } from "../../src/Webhooks/Sender.ts"
import { PUBLIC_WEBHOOK_URL } from "../support/Endpoints.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Webhooks over HTTP (docs/webhooks.md): the endpoints' statuses, the targets refused, and deliveries to
 * local receivers: signed as the Standard Webhooks specification says (checked here by a verifier
 * written from the specification, not with the service's code), retried on the schedule, Retry-After
 * honoured, no redirect followed, given up, the endpoint disabled after its run of failures, and
 * `run.completed` written when a run completes.
 */

/** A receiver on loopback that records what it gets and answers from a script (200 once the script is done). */
interface Receiver {
  readonly url: string
  readonly requests: Array<{ readonly headers: IncomingHttpHeaders; readonly body: string; readonly path: string }>
  /** The answers to give, in order: a status, with headers. */
  answers: Array<{ readonly status: number; readonly headers?: Record<string, string> } | "hang">
  readonly close: () => Promise<void>
}

const startReceiver = async (): Promise<Receiver> => {
  const requests: Receiver["requests"] = []
  const receiver = { requests, answers: [] as Receiver["answers"] }
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), path: request.url ?? "" })
      const answer = receiver.answers.shift() ?? { status: 200 }
      if (answer === "hang") return
      response.writeHead(answer.status, answer.headers ?? {})
      response.end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/T0SECRET/token-in-path`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  })
}

/**
 * The receiver's side, from the specification alone: the key is the base64 after `whsec_`, the signed
 * content `id.timestamp.body`, the header `v1,` + base64 of its HMAC-SHA256.
 */
const verifiedBySpec = (secret: string, headers: IncomingHttpHeaders, body: string): boolean => {
  const id = headers["webhook-id"] as string
  const timestamp = headers["webhook-timestamp"] as string
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64")
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest()
  return (headers["webhook-signature"] as string).split(" ").some((signature) => {
    const [version, value] = signature.split(",")
    const given = Buffer.from(value ?? "", "base64")
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)
  })
}

describe.each(backends)("webhooks API (%s)", (backend) => {
  let server: TestServer
  let key: string
  let project: number
  let otherProject: number
  let foreignKey: string
  let foreignProject: number
  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, ["*"])).key
    const made = async (name: string, withKey: string) =>
      (await server.request("POST", "/api/v1/projects", { key: withKey, body: { name } })).body.data.id as number
    project = await made("Webhooks", key)
    otherProject = await made("Other", key)
    const foreign = await server.createOrganization()
    foreignKey = (await server.createKey(foreign.id, ["*"])).key
    foreignProject = await made("Foreign", foreignKey)
  })
  afterAll(() => server.close())

  const create = (body: unknown, withKey = key, inProject = project) =>
    server.request("POST", "/api/v1/webhooks", { key: withKey, project: inProject, body })

  it("creates a webhook and shows its secret once", async () => {
    const created = await create({ url: PUBLIC_WEBHOOK_URL, events: ["alert.triggered", "run.completed", "run.completed"] })
    expect(created.status, created.text).toBe(201)
    const { secret, ...webhook } = created.body.data
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32)
    expect(webhook).toMatchObject({ url: PUBLIC_WEBHOOK_URL, format: "standard", events: ["run.completed", "alert.triggered"], active: true, disabled_at: null })
    const read = await server.request("GET", `/api/v1/webhooks/${webhook.id}`, { key, project })
    expect(read.status).toBe(200)
    expect(read.body.data).toEqual(webhook)
    expect(read.text).not.toContain(secret.slice(6))
    const list = await server.request("GET", "/api/v1/webhooks", { key, project })
    expect(list.body.data.map((row: { id: number }) => row.id)).toContain(webhook.id)
    expect(list.text).not.toContain("whsec_")
  })

  it("answers 401 without a key and 403 to a key without webhooks:manage", async () => {
    expect((await server.request("GET", "/api/v1/webhooks", { project })).status).toBe(401)
    const organization = (await server.request("GET", "/api/v1/organization", { key })).body.data.id as number
    const { key: reader } = await server.createKey(organization, ["projects:read", "monitors:write", "analytics:read"])
    const refused = await create({ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"] }, reader)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ message: "This action is unauthorized.", required_ability: "webhooks:manage" })
  })

  it("answers 404 for a webhook of another project or organization, and after its deletion", async () => {
    const own = (await create({ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"] })).body.data.id
    const other = (await create({ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"] }, key, otherProject)).body.data.id
    const foreign = (await create({ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"] }, foreignKey, foreignProject)).body.data.id
    for (const id of [other, foreign, 999_999]) {
      for (const [method, path, body] of [
        ["GET", `/api/v1/webhooks/${id}`, undefined],
        ["PATCH", `/api/v1/webhooks/${id}`, { active: false }],
        ["DELETE", `/api/v1/webhooks/${id}`, undefined],
        ["POST", `/api/v1/webhooks/${id}/test`, undefined],
        ["GET", `/api/v1/webhooks/${id}/deliveries`, undefined]
      ] as const) {
        const reply = await server.request(method, path, { key, project, body })
        expect(reply.status, `${method} ${path}`).toBe(404)
        expect(reply.body).toEqual({ message: "Webhook not found" })
      }
    }
    // The foreign organization's project itself is not found.
    expect((await server.request("GET", "/api/v1/webhooks", { key, project: foreignProject })).status).toBe(404)
    // Untouched by all that.
    expect((await server.request("GET", `/api/v1/webhooks/${foreign}`, { key: foreignKey, project: foreignProject })).body.data.active).toBe(true)
    expect((await server.request("DELETE", `/api/v1/webhooks/${own}`, { key, project })).status).toBe(204)
    expect((await server.request("GET", `/api/v1/webhooks/${own}`, { key, project })).status).toBe(404)
  })

  it("answers 422 for bad fields, naming them", async () => {
    const cases: ReadonlyArray<[unknown, string]> = [
      [{ events: ["run.completed"] }, "url"],
      [{ url: PUBLIC_WEBHOOK_URL }, "events"],
      [{ url: PUBLIC_WEBHOOK_URL, events: [] }, "events"],
      [{ url: PUBLIC_WEBHOOK_URL, events: ["webhook.test"] }, "events.0"],
      [{ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"], format: "teams" }, "format"],
      [{ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"], active: "yes" }, "active"],
      [{ url: "not a url", events: ["run.completed"] }, "url"],
      [{ url: "ftp://93.184.215.14/", events: ["run.completed"] }, "url"],
      [{ url: `https://${"a".repeat(2100)}.example/`, events: ["run.completed"] }, "url"]
    ]
    for (const [body, field] of cases) {
      const reply = await create(body)
      expect(reply.status, JSON.stringify(body)).toBe(422)
      expect(Object.keys(reply.body.errors), JSON.stringify(body)).toContain(field)
    }
  })

  it("refuses loopback, private, link-local and metadata targets, by address or by name, at creation and on update", async () => {
    const refused = [
      "https://127.0.0.1/hook",
      "https://10.1.2.3/hook",
      "https://192.168.0.10/hook",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://2130706433/hook",
      // A name of this machine: it resolves to 127.0.0.1.
      "https://localhost/hook",
      "https://api.localhost/hook",
      "https://metadata.google.internal/computeMetadata/v1/",
      // Without WEBHOOK_ALLOW_PRIVATE, https only.
      "http://93.184.215.14/hook"
    ]
    for (const url of refused) {
      const reply = await create({ url, events: ["run.completed"] })
      expect(reply.status, url).toBe(422)
      expect(reply.body.errors.url, url).toHaveLength(1)
    }
    const id = (await create({ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"] })).body.data.id
    const update = await server.request("PATCH", `/api/v1/webhooks/${id}`, { key, project, body: { url: "https://127.0.0.1/hook" } })
    expect(update.status).toBe(422)
    expect((await server.request("GET", `/api/v1/webhooks/${id}`, { key, project })).body.data.url).toBe(PUBLIC_WEBHOOK_URL)
  })

  it("never echoes a URL's password or token in an error", async () => {
    const reply = await create({ url: "https://user:hunter2@93.184.215.14/hook", events: ["run.completed"] })
    expect(reply.status).toBe(422)
    expect(reply.text).not.toContain("hunter2")
    const local = await create({ url: "https://127.0.0.1/services/T0SECRET/B0SECRET/xoxsecret", events: ["run.completed"] })
    expect(local.status).toBe(422)
    expect(local.text).not.toContain("SECRET")
  })

  it("updates the given fields only", async () => {
    const id = (await create({ url: PUBLIC_WEBHOOK_URL, events: ["run.completed"], format: "slack" })).body.data.id
    const reply = await server.request("PATCH", `/api/v1/webhooks/${id}`, { key, project, body: { active: false, events: ["digest.weekly"] } })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ id, url: PUBLIC_WEBHOOK_URL, format: "slack", events: ["digest.weekly"], active: false })
    const empty = await server.request("PATCH", `/api/v1/webhooks/${id}`, { key, project, body: {} })
    expect(empty.body.data).toEqual(reply.body.data)
  })
})

describe.each(backends)("webhook deliveries (%s)", (backend) => {
  let server: TestServer
  let receiver: Receiver
  let key: string
  let project: number
  let runProject: number
  beforeAll(async () => {
    // Secrets sealed at rest (Webhooks/SecretBox.ts): every delivery below opens its secret to sign.
    server = await startServer(backend, { webhookAllowPrivate: true, webhookSecretsKey: Option.some(Redacted.make("test sealing key")) })
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Deliveries" } })).body.data.id
    runProject = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Runs" } })).body.data.id
  })
  afterAll(() => server.close())
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())
  // Each test with its own webhooks: the loop claims whatever is due, so none is left behind.
  afterEach(async () => {
    for (const inProject of [project, runProject]) {
      const list = await server.request("GET", "/api/v1/webhooks?per_page=100", { key, project: inProject })
      for (const { id } of list.body.data) await server.request("DELETE", `/api/v1/webhooks/${id}`, { key, project: inProject })
    }
    receiver.requests.length = 0
    receiver.answers = []
  })

  const createWebhook = async (body: Record<string, unknown> = {}, inProject = project) => {
    const reply = await server.request("POST", "/api/v1/webhooks", { key, project: inProject, body: { url: receiver.url, events: ["run.completed"], ...body } })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data as { id: number; secret: string }
  }
  const test = async (id: number) => {
    const reply = await server.request("POST", `/api/v1/webhooks/${id}/test`, { key, project })
    expect(reply.status, reply.text).toBe(202)
    return reply.body.data
  }
  const deliveries = async (id: number, inProject = project) =>
    (await server.request("GET", `/api/v1/webhooks/${id}/deliveries`, { key, project: inProject })).body.data

  it("sends a test message signed as the specification says, even to an inactive webhook", async () => {
    const webhook = await createWebhook({ active: false })
    if (server.sql !== undefined) {
      const [stored] = await server.sql(`SELECT secret FROM webhooks WHERE id = ${webhook.id}`)
      expect(stored!.secret).toMatch(/^v1:/)
      expect(stored!.secret).not.toContain(webhook.secret.slice(6, 20))
    }
    const queued = await test(webhook.id)
    expect(queued).toMatchObject({ event: "webhook.test", status: "pending", attempts: [], delivered_at: null })
    expect(queued.message_id).toMatch(/^msg_/)
    expect(await server.deliverWebhooks()).toBe(1)
    expect(receiver.requests).toHaveLength(1)
    const [request] = receiver.requests
    expect(request!.headers["webhook-id"]).toBe(queued.message_id)
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(Math.abs(Number(request!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60)
    expect(verifiedBySpec(webhook.secret, request!.headers, request!.body)).toBe(true)
    // Another secret, or a body changed by one byte, does not verify.
    expect(verifiedBySpec(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, request!.headers, request!.body)).toBe(false)
    expect(verifiedBySpec(webhook.secret, request!.headers, `${request!.body} `)).toBe(false)
    const body = JSON.parse(request!.body)
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"])
    expect(body).toMatchObject({ type: "webhook.test", data: { webhook_id: webhook.id, project: { id: project, name: "Deliveries" } } })
    const [delivery] = await deliveries(webhook.id)
    expect(delivery).toMatchObject({ id: queued.id, status: "delivered", next_attempt_at: null, notice: null })
    expect(delivery.attempts).toMatchObject([{ attempt: 1, status_code: 200, error: null, next_attempt_at: null }])
    // Delivered: never sent again.
    expect(await server.deliverWebhooks(new Date(Date.now() + 86_400_000))).toBe(0)
  })

  it("sends a slack webhook a message with text and blocks", async () => {
    const webhook = await createWebhook({ format: "slack" })
    await test(webhook.id)
    await server.deliverWebhooks()
    const message = JSON.parse(receiver.requests[0]!.body)
    expect(typeof message.text).toBe("string")
    expect(message.text).toContain(`webhook ${webhook.id}`)
    expect(message.blocks.length).toBeGreaterThan(0)
  })

  it("retries a 500 on the schedule with the same message id, then delivers", async () => {
    const webhook = await createWebhook()
    const queued = await test(webhook.id)
    receiver.answers = [{ status: 500 }]
    const start = new Date()
    expect(await server.deliverWebhooks(start)).toBe(1)
    const [failed] = await deliveries(webhook.id)
    expect(failed.status).toBe("pending")
    expect(failed.attempts).toMatchObject([{ attempt: 1, status_code: 500, error: "HTTP 500" }])
    const retryAt = new Date(failed.next_attempt_at).getTime()
    // 30 s, ±10%.
    expect(retryAt - start.getTime()).toBeGreaterThanOrEqual(27_000)
    expect(retryAt - start.getTime()).toBeLessThanOrEqual(33_500)
    // Not due before then.
    expect(await server.deliverWebhooks(new Date(retryAt - 1000))).toBe(0)
    expect(await server.deliverWebhooks(new Date(retryAt))).toBe(1)
    expect(receiver.requests.map((request) => request.headers["webhook-id"])).toEqual([queued.message_id, queued.message_id])
    for (const request of receiver.requests) expect(verifiedBySpec(webhook.secret, request.headers, request.body)).toBe(true)
    const [delivered] = await deliveries(webhook.id)
    expect(delivered.status).toBe("delivered")
    expect(delivered.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([500, 200])
  })

  it("honours Retry-After, follows no redirect, and times out", async () => {
    const webhook = await createWebhook()
    await test(webhook.id)
    receiver.answers = [{ status: 503, headers: { "retry-after": "600" } }]
    const start = new Date()
    await server.deliverWebhooks(start)
    const [later] = await deliveries(webhook.id)
    expect(new Date(later.next_attempt_at).getTime() - start.getTime()).toBeGreaterThanOrEqual(600_000)

    receiver.answers = [{ status: 302, headers: { location: `${receiver.url}/elsewhere` } }]
    await server.deliverWebhooks(new Date(later.next_attempt_at))
    // One request: the redirect was not followed.
    expect(receiver.requests).toHaveLength(2)
    const [redirected] = await deliveries(webhook.id)
    expect(redirected.attempts[1]).toMatchObject({ status_code: 302, error: "HTTP 302: redirects are not followed" })

    receiver.answers = ["hang"]
    await server.deliverWebhooks(new Date(redirected.next_attempt_at), { timeoutMs: 300 })
    const [timedOut] = await deliveries(webhook.id)
    expect(timedOut.attempts[2]).toMatchObject({ status_code: null, error: "no answer within 10 s" })
    expect(timedOut.status).toBe("pending")
  })

  it("gives a delivery up after 10 attempts, and disables the webhook after 15 failures in a row over a day", async () => {
    const webhook = await createWebhook()
    const first = await test(webhook.id)
    let at = new Date()
    /** Fails every attempt of the delivery until it is given up or its webhook is disabled. */
    const failUntilSettled = async (id: number) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        receiver.answers = [{ status: 500 }]
        expect(await server.deliverWebhooks(at)).toBe(1)
        const delivery = (await deliveries(webhook.id)).find((row: { id: number }) => row.id === id)
        const active = (await server.request("GET", `/api/v1/webhooks/${webhook.id}`, { key, project })).body.data.active
        if (!active || delivery.status !== "pending") return delivery
        at = new Date(delivery.next_attempt_at)
      }
      throw new Error("never settled")
    }
    const givenUp = await failUntilSettled(first.id)
    expect(givenUp.status).toBe("failed")
    expect(givenUp.attempts).toHaveLength(10)
    expect(givenUp.next_attempt_at).toBe(null)
    // About 21 hours from the first attempt to the last (±10% on each step).
    const span = new Date(givenUp.attempts[9].started_at).getTime() - new Date(givenUp.attempts[0].started_at).getTime()
    expect(span / 3_600_000).toBeGreaterThan(18)
    expect(span / 3_600_000).toBeLessThan(24)
    expect((await server.request("GET", `/api/v1/webhooks/${webhook.id}`, { key, project })).body.data.active).toBe(true)

    // A second message fails on: the 15th failure in a row comes before 24 h, so the webhook is disabled later.
    const second = await test(webhook.id)
    at = new Date(at.getTime() + 1000)
    await failUntilSettled(second.id)
    const shown = (await server.request("GET", `/api/v1/webhooks/${webhook.id}`, { key, project })).body.data
    expect(shown.active).toBe(false)
    expect(shown.disabled_at).not.toBe(null)
    expect(shown.disabled_reason).toContain("15 failed attempts")
    const last = (await deliveries(webhook.id)).find((row: { id: number }) => row.id === second.id)
    expect(last.notice).toContain("disabled")
    // Its last attempt made the 24 hours: the span of the run of failures.
    const lastAttempt = last.attempts.at(-1)
    expect(new Date(lastAttempt.started_at).getTime() - new Date(givenUp.attempts[0].started_at).getTime()).toBeGreaterThanOrEqual(86_400_000)
    expect(last.status).toBe("pending")
    // Turned on again: a new run of failures, and what is pending goes.
    const farFuture = new Date(at.getTime() + 7 * 86_400_000)
    const enabled = await server.request("PATCH", `/api/v1/webhooks/${webhook.id}`, { key, project, body: { active: true } })
    expect(enabled.body.data).toMatchObject({ active: true, disabled_at: null, disabled_reason: null })
    expect(await server.deliverWebhooks(farFuture)).toBe(1)
    expect((await deliveries(webhook.id)).find((row: { id: number }) => row.id === second.id).status).toBe("delivered")
  })

  it("sends again, and records once, a delivery whose worker stopped between sending and recording", async () => {
    const webhook = await createWebhook()
    const queued = await test(webhook.id)
    // The first request is held by the receiver; the pass is stopped while it waits, before it records anything.
    receiver.answers = ["hang"]
    const stop = new AbortController()
    const start = new Date()
    const pass = server.deliverWebhooks(start, { signal: stop.signal }).catch(() => "stopped")
    while (receiver.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    stop.abort()
    expect(await pass).toBe("stopped")
    const [claimed] = await deliveries(webhook.id)
    expect(claimed).toMatchObject({ status: "pending", attempts: [] })
    // Claimed for 60 s: no other pass sends it meanwhile; after that, the next does.
    expect(await server.deliverWebhooks(new Date(start.getTime() + 30_000))).toBe(0)
    expect(await server.deliverWebhooks(new Date(start.getTime() + 61_000))).toBe(1)
    expect(receiver.requests.map((request) => request.headers["webhook-id"])).toEqual([queued.message_id, queued.message_id])
    const [delivered] = await deliveries(webhook.id)
    expect(delivered.status).toBe("delivered")
    expect(delivered.attempts).toHaveLength(1)
    expect(delivered.attempts[0]).toMatchObject({ attempt: 2, status_code: 200 })
  })

  it("refuses at delivery a target that is no longer allowed, and sends it nothing", async () => {
    const webhook = await createWebhook()
    await test(webhook.id)
    // As if the service now ran without WEBHOOK_ALLOW_PRIVATE (or the name now resolved to loopback).
    await server.deliverWebhooks(undefined, { policy: strictPolicy })
    expect(receiver.requests).toHaveLength(0)
    const [refused] = await deliveries(webhook.id)
    expect(refused.attempts[0].status_code).toBe(null)
    expect(refused.attempts[0].error).toMatch(/^refused: /)
  })

  it("keeps the secret and the URL out of logs and delivery errors", async () => {
    const webhook = await createWebhook()
    await test(webhook.id)
    await test(webhook.id)
    receiver.answers = [{ status: 500 }, { status: 200 }]
    const lines: Array<string> = []
    await server.deliverWebhooks(undefined, { log: (line) => lines.push(line) })
    expect(lines.length).toBeGreaterThanOrEqual(2)
    const listed = (await server.request("GET", `/api/v1/webhooks/${webhook.id}/deliveries`, { key, project })).text
    for (const text of [lines.join("\n"), listed]) {
      expect(text).not.toContain(webhook.secret.slice(6))
      expect(text).not.toContain("T0SECRET")
    }
  })

  // The collector's tables exist on the SQL database only: the in-memory store has no runs that complete.
  if (backend !== "memory") it("writes run.completed for subscribed active webhooks when a run completes", async () => {
    const project = runProject
    const subscribed = await createWebhook({}, project)
    const other = await createWebhook({ events: ["alert.triggered"] }, project)
    const inactive = await createWebhook({ active: false }, project)
    const monitor = (await server.request("POST", "/api/v1/monitors", {
      key, project, body: { name: "Weekly <CRM>", country: "US", platforms: ["chatgpt", "claude"] }
    })).body.data.id
    await server.request("POST", "/api/v1/prompts", { key, project, body: { monitor_id: monitor, text: "Best CRM?" } })
    const run = await server.request("POST", `/api/v1/monitors/${monitor}/runs`, { key, project })
    expect(run.status, run.text).toBe(202)
    const runId = run.body.data.id
    // The collector's work, as its statements leave it: one job answered, one failed, then the run completed.
    await server.sql!(`UPDATE collector_jobs SET status = 'succeeded' WHERE run_id = ${runId} AND platform = 'chatgpt'`)
    await server.sql!(`UPDATE collector_jobs SET status = 'failed', reason = 'boom' WHERE run_id = ${runId} AND platform = 'claude'`)
    expect(await server.deliverWebhooks()).toBe(0)
    await server.sql!(`UPDATE collector_runs SET status = 'completed', completed_at = now() WHERE id = ${runId}`)
    // Completed again (it cannot be): no second event.
    await server.sql!(`UPDATE collector_runs SET status = 'completed' WHERE id = ${runId}`)
    // Turned off after the event: its delivery waits, and goes once it is turned on again.
    await server.request("PATCH", `/api/v1/webhooks/${subscribed.id}`, { key, project, body: { active: false } })
    expect(await server.deliverWebhooks()).toBe(0)
    await server.request("PATCH", `/api/v1/webhooks/${subscribed.id}`, { key, project, body: { active: true } })
    expect(await server.deliverWebhooks()).toBe(1)
    expect(receiver.requests).toHaveLength(1)
    const [request] = receiver.requests
    expect(verifiedBySpec(subscribed.secret, request!.headers, request!.body)).toBe(true)
    const event = JSON.parse(request!.body)
    expect(event).toMatchObject({
      type: "run.completed",
      data: {
        project: { id: project, name: "Runs" },
        run: { id: runId, monitor: { id: monitor, name: "Weekly <CRM>" }, trigger: "manual", status: "partial", responses_count: 1, failed_count: 1 }
      }
    })
    expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(await deliveries(other.id, project)).toEqual([])
    expect(await deliveries(inactive.id, project)).toEqual([])
  })
})

describe("the sender", () => {
  it("refuses a name that resolves to 127.0.0.1 and connects nowhere", async () => {
    const receiver = await startReceiver()
    try {
      const port = new URL(receiver.url).port
      const sent = await send(
        `http://receiver.test:${port}/hook`,
        "{}",
        {},
        { allowHttp: true, allowPrivate: false },
        { resolver: async () => [{ address: "127.0.0.1", family: 4 }] }
      )
      expect(sent.result).toMatchObject({ ok: false, status: null })
      expect(!sent.result.ok && sent.result.error).toMatch(/^refused: /)
      expect(receiver.requests).toHaveLength(0)
      // The same name allowed to be private reaches it.
      const allowed = await send(`http://receiver.test:${port}/hook`, "{}", {}, { allowHttp: true, allowPrivate: true }, {
        resolver: async () => [{ address: "127.0.0.1", family: 4 }]
      })
      expect(allowed.result).toEqual({ ok: true, status: 200 })
      expect(receiver.requests).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })
})
