import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type Reply, type TestServer } from "../support/TestServer.ts"

/**
 * Bad input end to end (docs/api.md): every failure is a 4xx in the documented shape,
 * never a 500, and a refused write leaves nothing behind.
 */

const INVALID = "The given data was invalid."
const UNAUTHENTICATED = { message: "Unauthenticated." }

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const wellFormedUnknownKey = () => {
  let body = ""
  for (let i = 0; i < 40; i++) body += BASE62[Math.floor(Math.random() * BASE62.length)]
  return `bvm_${body}`
}

/** `{"message": string}` and nothing else. */
const expectMessageOnly = (reply: Reply, status: number, message?: string) => {
  expect(reply.status).toBe(status)
  expect(reply.headers.get("content-type") ?? "").toContain("application/json")
  expect(reply.body).toEqual({ message: message ?? expect.any(String) })
  expect(reply.body.message.length).toBeGreaterThan(0)
}

/** A 422 naming exactly these fields, each with one or more non-empty messages. */
const expectInvalid = (reply: Reply, fields: ReadonlyArray<string>) => {
  expect(reply.status).toBe(422)
  expect(Object.keys(reply.body)).toEqual(["message", "errors"])
  expect(reply.body.message).toBe(INVALID)
  expect(Object.keys(reply.body.errors).sort()).toEqual([...fields].sort())
  for (const field of fields) {
    const messages = reply.body.errors[field]
    expect(Array.isArray(messages)).toBe(true)
    expect(messages.length).toBeGreaterThan(0)
    for (const text of messages) {
      expect(typeof text).toBe("string")
      expect(text.length).toBeGreaterThan(0)
    }
  }
}

/** 400 or 422 in the documented shape; never a 5xx. */
const expectClientError = (reply: Reply) => {
  expect(reply.status).toBeLessThan(500)
  expect([400, 422]).toContain(reply.status)
  expect(typeof reply.body?.message).toBe("string")
  if (reply.status === 422) {
    expect(reply.body.message).toBe(INVALID)
    expect(typeof reply.body.errors).toBe("object")
  } else {
    expect(Object.keys(reply.body)).toEqual(["message"])
  }
}

const repeat = (n: number, char = "a") => char.repeat(n)

describe.each(backends)("bad input (%s)", (backend) => {
  let server: TestServer
  let organizationId: number
  let key: string
  let projectId: number
  let monitorId: number
  let tagId: number
  let promptId: number
  /** Another organization's project, and another project of the same organization. */
  let foreignProjectId: number
  let siblingProjectId: number
  let siblingMonitorId: number
  let siblingTagId: number

  const json = { "content-type": "application/json" }

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Inputs")
    organizationId = organization.id
    key = (await server.createKey(organization.id, ["*"])).key

    const project = await server.request("POST", "/api/v1/projects", { key, body: { name: "Main", domain: "main.example" } })
    expect(project.status).toBe(201)
    projectId = project.body.data.id
    const monitor = await server.request("POST", "/api/v1/monitors", {
      key,
      project: projectId,
      body: { name: "US", country: "US", platforms: ["chatgpt"] }
    })
    expect(monitor.status).toBe(201)
    monitorId = monitor.body.data.id
    const tag = await server.request("POST", "/api/v1/tags", { key, project: projectId, body: { name: "Pricing", color: "#112233" } })
    expect(tag.status).toBe(201)
    tagId = tag.body.data.id
    const prompt = await server.request("POST", "/api/v1/prompts", {
      key,
      project: projectId,
      body: { monitor_id: monitorId, text: "Best CRM?", tags: [tagId] }
    })
    expect(prompt.status).toBe(201)
    promptId = prompt.body.data.id

    const sibling = await server.request("POST", "/api/v1/projects", { key, body: { name: "Sibling" } })
    siblingProjectId = sibling.body.data.id
    const siblingMonitor = await server.request("POST", "/api/v1/monitors", {
      key,
      project: siblingProjectId,
      body: { name: "FR", country: "fr", platforms: ["claude"] }
    })
    siblingMonitorId = siblingMonitor.body.data.id
    const siblingTags = await server.request("GET", "/api/v1/tags", { key, project: siblingProjectId })
    siblingTagId = siblingTags.body.data[0].id

    const foreign = await server.createOrganization("Foreign")
    const foreignKey = (await server.createKey(foreign.id, ["*"])).key
    const foreignProject = await server.request("POST", "/api/v1/projects", { key: foreignKey, body: { name: "Theirs" } })
    foreignProjectId = foreignProject.body.data.id
  })
  afterAll(() => server.close())

  // ---------------------------------------------------------------------------------------------
  // The write endpoints, and how to see whether a refused request changed anything.
  // ---------------------------------------------------------------------------------------------

  const list = async (path: string, project?: number) => {
    const reply = await server.request("GET", `${path}?per_page=100`, { key, project })
    expect(reply.status).toBe(200)
    return { total: reply.body.meta.total, data: reply.body.data }
  }
  const read = async (path: string, project?: number) => {
    const reply = await server.request("GET", path, { key, project })
    expect(reply.status).toBe(200)
    return reply.body
  }

  interface Target {
    readonly name: string
    readonly method: "POST" | "PATCH"
    readonly path: () => string
    readonly project: () => number | undefined
    /** Everything the request could have changed. */
    readonly state: () => Promise<unknown>
  }

  const targets: ReadonlyArray<Target> = [
    {
      name: "POST /projects",
      method: "POST",
      path: () => "/api/v1/projects",
      project: () => undefined,
      state: () => list("/api/v1/projects")
    },
    {
      name: "POST /monitors",
      method: "POST",
      path: () => "/api/v1/monitors",
      project: () => projectId,
      state: () => list("/api/v1/monitors", projectId)
    },
    {
      name: "POST /prompts",
      method: "POST",
      path: () => "/api/v1/prompts",
      project: () => projectId,
      state: () => list("/api/v1/prompts", projectId)
    },
    {
      name: "POST /tags",
      method: "POST",
      path: () => "/api/v1/tags",
      project: () => projectId,
      state: () => list("/api/v1/tags", projectId)
    },
    {
      name: "PATCH /projects/{project}",
      method: "PATCH",
      path: () => `/api/v1/projects/${projectId}`,
      project: () => undefined,
      state: () => read(`/api/v1/projects/${projectId}`)
    },
    {
      name: "PATCH /monitors/{monitor}",
      method: "PATCH",
      path: () => `/api/v1/monitors/${monitorId}`,
      project: () => projectId,
      state: () => read(`/api/v1/monitors/${monitorId}`, projectId)
    },
    {
      name: "PATCH /prompts/{prompt}",
      method: "PATCH",
      path: () => `/api/v1/prompts/${promptId}`,
      project: () => projectId,
      state: () => read(`/api/v1/prompts/${promptId}`, projectId)
    },
    {
      name: "PATCH /tags/{tag}",
      method: "PATCH",
      path: () => `/api/v1/tags/${tagId}`,
      project: () => projectId,
      state: () => read(`/api/v1/tags/${tagId}`, projectId)
    },
    {
      name: "PATCH /organization",
      method: "PATCH",
      path: () => "/api/v1/organization",
      project: () => undefined,
      state: () => read("/api/v1/organization")
    }
  ]
  const target = (name: string): Target => targets.find((t) => t.name === name)!

  /** Sends, checks with `check`, and checks that nothing changed. */
  const refused = async (
    t: Target,
    options: { readonly body?: unknown; readonly rawBody?: string; readonly headers?: Record<string, string> },
    check: (reply: Reply) => void
  ) => {
    const before = await t.state()
    const reply = await server.request(t.method, t.path(), { key, project: t.project(), ...options })
    check(reply)
    expect(await t.state()).toEqual(before)
    return reply
  }

  describe("malformed JSON", () => {
    it.each(targets.map((t) => [t.name, t] as const))("%s: 400 with a message, nothing written", async (_, t) => {
      await refused(t, { rawBody: "{", headers: json }, (reply) => expectMessageOnly(reply, 400))
    })

    it.each(targets.map((t) => [t.name, t] as const))("%s: a truncated object is a 400 too", async (_, t) => {
      await refused(t, { rawBody: "{\"name\": \"x\"", headers: json }, (reply) => expectMessageOnly(reply, 400))
    })

    it("POST /tags with a body that is not JSON at all: 400", async () => {
      await refused(target("POST /tags"), { rawBody: "name=x&color=%23aabbcc", headers: json }, (reply) => {
        expectMessageOnly(reply, 400)
      })
    })

    it("an empty body declared as JSON is a client error, never a 500", async () => {
      await refused(target("POST /tags"), { rawBody: "", headers: json }, expectClientError)
    })
  })

  describe("JSON that is not an object", () => {
    const cases = targets.flatMap((t) => ["[]", "\"x\"", "42", "null", "true"].map((raw) => [t.name, raw, t] as const))
    it.each(cases)("%s with %s: 400 or 422, never 500, nothing written", async (_, raw, t) => {
      await refused(t, { rawBody: raw, headers: json }, expectClientError)
    })
  })

  describe("wrong types", () => {
    const cases: ReadonlyArray<readonly [string, () => unknown, string]> = [
      ["POST /projects", () => ({ name: 42 }), "name"],
      ["POST /projects", () => ({ name: null }), "name"],
      ["POST /projects", () => ({ name: [] }), "name"],
      ["POST /projects", () => ({ name: {} }), "name"],
      ["POST /projects", () => ({ name: true }), "name"],
      ["POST /projects", () => ({ name: "Ok", domain: 5 }), "domain"],
      ["POST /projects", () => ({ name: "Ok", domain: "not a host" }), "domain"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: "chatgpt" }), "platforms"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt"], active: "yes" }), "active"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt"], active: 1 }), "active"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt"], simulated: "true" }), "simulated"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt"], simulated: null }), "simulated"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: [] }), "platforms"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt", "bing"] }), "platforms.1"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: [42] }), "platforms.0"],
      ["POST /monitors", () => ({ name: "M", country: "USA", platforms: ["chatgpt"] }), "country"],
      ["POST /monitors", () => ({ name: "M", country: 12, platforms: ["chatgpt"] }), "country"],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt"], schedule: "hourly" }), "schedule"],
      ["POST /monitors", () => ({ name: 42, country: "US", platforms: ["chatgpt"] }), "name"],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: "Q", tags: ["a"] }), "tags.0"],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: "Q", tags: [1.5] }), "tags.0"],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: "Q", tags: [tagId, "a"] }), "tags.1"],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: "Q", tags: "a" }), "tags"],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: "Q", tags: [tagId, 99999999] }), "tags.1"],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: "Q", tags: [siblingTagId] }), "tags.0"],
      ["POST /prompts", () => ({ monitor_id: "abc", text: "Q" }), "monitor_id"],
      ["POST /prompts", () => ({ monitor_id: 1.5, text: "Q" }), "monitor_id"],
      ["POST /prompts", () => ({ monitor_id: -1, text: "Q" }), "monitor_id"],
      ["POST /prompts", () => ({ monitor_id: siblingMonitorId, text: "Q" }), "monitor_id"],
      ["POST /prompts", () => ({ monitor_id: 99999999, text: "Q" }), "monitor_id"],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: 42 }), "text"],
      ["POST /tags", () => ({ name: "Colored", color: 123 }), "color"],
      ["POST /tags", () => ({ name: "Colored", color: "red" }), "color"],
      ["POST /tags", () => ({ name: "Colored", color: "#12345" }), "color"],
      ["POST /tags", () => ({ name: 42 }), "name"],
      ["POST /tags", () => ({ name: ["a"] }), "name"],
      ["PATCH /projects/{project}", () => ({ name: 42 }), "name"],
      ["PATCH /projects/{project}", () => ({ name: null }), "name"],
      ["PATCH /projects/{project}", () => ({ brand_id: "x" }), "brand_id"],
      ["PATCH /projects/{project}", () => ({ brand_id: 1.5 }), "brand_id"],
      ["PATCH /projects/{project}", () => ({ brand_id: 99999999 }), "brand_id"],
      ["PATCH /monitors/{monitor}", () => ({ active: "yes" }), "active"],
      ["PATCH /monitors/{monitor}", () => ({ simulated: 1 }), "simulated"],
      ["PATCH /monitors/{monitor}", () => ({ platforms: "chatgpt" }), "platforms"],
      ["PATCH /monitors/{monitor}", () => ({ country: "XX" }), "country"],
      ["PATCH /prompts/{prompt}", () => ({ tags: ["a"] }), "tags.0"],
      ["PATCH /prompts/{prompt}", () => ({ tags: [1.5] }), "tags.0"],
      ["PATCH /prompts/{prompt}", () => ({ monitor_id: "abc" }), "monitor_id"],
      ["PATCH /prompts/{prompt}", () => ({ monitor_id: siblingMonitorId }), "monitor_id"],
      ["PATCH /prompts/{prompt}", () => ({ text: null }), "text"],
      ["PATCH /tags/{tag}", () => ({ name: 42 }), "name"],
      ["PATCH /tags/{tag}", () => ({ color: 123 }), "color"],
      ["PATCH /organization", () => ({ name: 42 }), "name"],
      ["PATCH /organization", () => ({ name: null }), "name"],
      ["PATCH /organization", () => ({ name: [] }), "name"]
    ]
    it.each(cases.map(([name, body, field]) => [name, field, body] as const))(
      "%s: a bad %s is a 422 naming the field, nothing written",
      async (name, field, body) => {
        await refused(target(name), { body: body() }, (reply) => expectInvalid(reply, [field]))
      }
    )

    it("several bad fields are all named", async () => {
      await refused(
        target("POST /monitors"),
        { body: { name: 1, country: "USA", platforms: "x", active: "no" } },
        (reply) => expectInvalid(reply, ["name", "country", "platforms", "active"])
      )
    })
  })

  // Laravel-style messages (docs/api.md, "Validation messages"): one sentence per broken rule, in the service's own wording (src/Http/Fields.ts), never the
  // schema library's internals such as `Expected undefined, actual 42`.
  describe("422 messages are client-facing sentences", () => {
    const cases: ReadonlyArray<readonly [string, () => unknown, Record<string, ReadonlyArray<string> | null>]> = [
      ["POST /projects", () => ({ name: 42 }), { name: ["The name field must be a string."] }],
      ["POST /projects", () => ({ name: "Ok", domain: 5 }), { domain: ["The domain field must be a string."] }],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt"], active: "yes" }), {
        active: ["The active field must be true or false."]
      }],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt"], schedule: "hourly" }), {
        schedule: ["The selected schedule is invalid. Allowed: daily, weekly, manual."]
      }],
      ["POST /monitors", () => ({ name: "M", country: "US", platforms: ["chatgpt", "bing"] }), {
        "platforms.1": ["The selected platforms item is invalid. Allowed: chatgpt, perplexity, gemini, grok, copilot, claude, google_ai_mode, google_ai_overview."]
      }],
      ["POST /prompts", () => ({ monitor_id: monitorId, text: "Q", tags: ["a"] }), { "tags.0": null }],
      ["POST /tags", () => ({ name: "Colored", color: "red" }), {
        color: ["The color field must be a valid hexadecimal color (#rrggbb)."]
      }],
      ["PATCH /projects/{project}", () => ({ brand_id: "x" }), { brand_id: ["The brand id field must be an integer."] }],
      ["PATCH /tags/{tag}", () => ({ name: 42 }), { name: ["The name field must be a string."] }],
      ["PATCH /organization", () => ({ name: "   " }), { name: ["The name field is required."] }],
      ["PATCH /organization", () => ({ name: repeat(256) }), { name: ["The name field must not be greater than 255 characters."] }]
    ]
    it.each(cases.map(([name, body, errors]) => [name, JSON.stringify(Object.keys(errors)), body, errors] as const))(
      "%s: errors %s carry one message each, no schema internals",
      async (name, _, body, errors) => {
        await refused(target(name), { body: body() }, (reply) => {
          expect(reply.status).toBe(422)
          expect(reply.body.message).toBe(INVALID)
          for (const messages of Object.values(reply.body.errors as Record<string, Array<string>>)) {
            for (const text of messages) expect(text).not.toMatch(/Expected .*, actual /)
          }
          expect(Object.keys(reply.body.errors).sort()).toEqual(Object.keys(errors).sort())
          for (const [field, messages] of Object.entries(errors)) {
            expect(reply.body.errors[field]).toHaveLength(1)
            if (messages !== null) expect(reply.body.errors[field]).toEqual(messages)
          }
        })
      }
    )

    it("GET /prompts?monitor_id=abc: one message for monitor_id", async () => {
      const reply = await server.request("GET", "/api/v1/prompts?monitor_id=abc", { key, project: projectId })
      expect(reply.status).toBe(422)
      expect(reply.body).toEqual({ message: INVALID, errors: { monitor_id: ["The monitor id field must be an integer."] } })
    })
  })

  describe("nothing half-written", () => {
    it("PATCH /projects with a good name and a bad brand_id changes nothing", async () => {
      await refused(target("PATCH /projects/{project}"), { body: { name: "Renamed", brand_id: 99999999 } }, (reply) => {
        expectInvalid(reply, ["brand_id"])
      })
    })

    it("PATCH /prompts with a good text and a foreign tag changes nothing", async () => {
      await refused(target("PATCH /prompts/{prompt}"), { body: { text: "Changed?", tags: [siblingTagId] } }, (reply) => {
        expectInvalid(reply, ["tags.0"])
      })
    })

    it("PATCH /tags with a good name and a bad color changes nothing", async () => {
      await refused(target("PATCH /tags/{tag}"), { body: { name: "Renamed", color: "blue" } }, (reply) => {
        expectInvalid(reply, ["color"])
      })
    })

    it("PATCH /tags to a name taken in any case: 422, color unchanged too", async () => {
      await refused(target("PATCH /tags/{tag}"), { body: { name: "BRANDED", color: "#abcdef" } }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: INVALID, errors: { name: ["The name has already been taken."] } })
      })
    })

    it("POST /tags with a name taken in another case: 422, nothing created", async () => {
      await refused(target("POST /tags"), { body: { name: " Non-Branded " } }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: INVALID, errors: { name: ["The name has already been taken."] } })
      })
    })

    it("PATCH /monitors with a good name and bad platforms changes nothing", async () => {
      await refused(target("PATCH /monitors/{monitor}"), { body: { name: "Renamed", platforms: [] } }, (reply) => {
        expectInvalid(reply, ["platforms"])
      })
    })
  })

  describe("missing required fields", () => {
    it("POST /projects {}: errors.name is exactly [\"The name field is required.\"]", async () => {
      await refused(target("POST /projects"), { body: {} }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: INVALID, errors: { name: ["The name field is required."] } })
      })
    })

    it("POST /tags {}: errors.name", async () => {
      await refused(target("POST /tags"), { body: { color: "#aabbcc" } }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: INVALID, errors: { name: ["The name field is required."] } })
      })
    })

    it("POST /prompts without text: errors.text", async () => {
      await refused(target("POST /prompts"), { body: { monitor_id: monitorId } }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: INVALID, errors: { text: ["The text field is required."] } })
      })
    })

    it("POST /prompts without monitor_id: errors.monitor_id", async () => {
      await refused(target("POST /prompts"), { body: { text: "Orphan?" } }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: INVALID, errors: { monitor_id: ["The monitor id field is required."] } })
      })
    })

    it("POST /monitors without country and platforms: both named", async () => {
      await refused(target("POST /monitors"), { body: { name: "Half" } }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({
          message: INVALID,
          errors: { country: ["The country field is required."], platforms: ["The platforms field is required."] }
        })
      })
    })

    it("POST /monitors {}: name, country and platforms named", async () => {
      await refused(target("POST /monitors"), { body: {} }, (reply) => expectInvalid(reply, ["name", "country", "platforms"]))
    })

    it("an empty PATCH is not an error and changes nothing", async () => {
      for (const name of ["PATCH /projects/{project}", "PATCH /tags/{tag}", "PATCH /organization", "PATCH /monitors/{monitor}"]) {
        const t = target(name)
        const before = (await t.state()) as { data: Record<string, unknown> }
        const reply = await server.request("PATCH", t.path(), { key, project: t.project(), body: {} })
        expect(reply.status).toBe(200)
        expect(reply.body.data.id).toBe(before.data.id)
        expect(reply.body.data.name).toBe(before.data.name)
      }
    })
  })

  describe("lengths, trimmed first", () => {
    it("project name: 256 characters is a 422, 255 is accepted, surrounding spaces do not count", async () => {
      await refused(target("POST /projects"), { body: { name: repeat(256) } }, (reply) => expectInvalid(reply, ["name"]))
      const exact = await server.request("POST", "/api/v1/projects", { key, body: { name: repeat(255, "b") } })
      expect(exact.status).toBe(201)
      expect(exact.body.data.name).toBe(repeat(255, "b"))
      const padded = await server.request("POST", "/api/v1/projects", { key, body: { name: `  ${repeat(255, "c")}  ` } })
      expect(padded.status).toBe(201)
      expect(padded.body.data.name).toBe(repeat(255, "c"))
      expect((await read(`/api/v1/projects/${padded.body.data.id}`)).data.name).toBe(repeat(255, "c"))
    })

    it("project name of 255 two-byte characters is accepted (characters, not bytes)", async () => {
      const reply = await server.request("POST", "/api/v1/projects", { key, body: { name: repeat(255, "é") } })
      expect(reply.status).toBe(201)
      expect(reply.body.data.name).toBe(repeat(255, "é"))
    })

    it("tag name of 100 characters outside the BMP is accepted (characters, not UTF-16 units)", async () => {
      // Laravel's max:100 counts characters (mb_strlen), and so does varchar(100); 100 emoji are 200 UTF-16 units.
      const name = repeat(100, "\u{1F600}")
      const reply = await server.request("POST", "/api/v1/tags", { key, project: projectId, body: { name } })
      expect(reply.body).not.toHaveProperty("errors")
      expect(reply.status).toBe(201)
      expect(reply.body.data.name).toBe(name)
      await refused(target("POST /tags"), { body: { name: repeat(101, "\u{1F601}") } }, (r) => expectInvalid(r, ["name"]))
    })

    it.each([" ", "   ", "\t\n ", ""])("project name %j is a 422 (required)", async (name) => {
      await refused(target("POST /projects"), { body: { name } }, (reply) => {
        expect(reply.status).toBe(422)
        expect(reply.body).toEqual({ message: INVALID, errors: { name: ["The name field is required."] } })
      })
    })

    it("PATCH /projects name: 256 or whitespace is a 422, 255 is accepted", async () => {
      const t = target("PATCH /projects/{project}")
      await refused(t, { body: { name: repeat(256) } }, (reply) => expectInvalid(reply, ["name"]))
      await refused(t, { body: { name: "   " } }, (reply) => expectInvalid(reply, ["name"]))
      const ok = await server.request("PATCH", t.path(), { key, body: { name: ` ${repeat(255, "m")} ` } })
      expect(ok.status).toBe(200)
      expect(ok.body.data.name).toBe(repeat(255, "m"))
      const back = await server.request("PATCH", t.path(), { key, body: { name: "Main" } })
      expect(back.status).toBe(200)
    })

    it("tag name: 101 is a 422, 100 is accepted, trimmed", async () => {
      await refused(target("POST /tags"), { body: { name: repeat(101) } }, (reply) => expectInvalid(reply, ["name"]))
      await refused(target("POST /tags"), { body: { name: "    " } }, (reply) => expectInvalid(reply, ["name"]))
      const exact = await server.request("POST", "/api/v1/tags", { key, project: projectId, body: { name: repeat(100, "t") } })
      expect(exact.status).toBe(201)
      expect(exact.body.data.name).toBe(repeat(100, "t"))
      const padded = await server.request("POST", "/api/v1/tags", {
        key,
        project: projectId,
        body: { name: `  ${repeat(100, "u")}  ` }
      })
      expect(padded.status).toBe(201)
      expect(padded.body.data.name).toBe(repeat(100, "u"))
      await refused(target("PATCH /tags/{tag}"), { body: { name: repeat(101) } }, (reply) => expectInvalid(reply, ["name"]))
      await refused(target("PATCH /tags/{tag}"), { body: { name: " " } }, (reply) => expectInvalid(reply, ["name"]))
    })

    it("prompt text: 2001 is a 422, 2000 is accepted, trimmed", async () => {
      await refused(target("POST /prompts"), { body: { monitor_id: monitorId, text: repeat(2001) } }, (reply) => {
        expectInvalid(reply, ["text"])
      })
      await refused(target("POST /prompts"), { body: { monitor_id: monitorId, text: " \n " } }, (reply) => {
        expectInvalid(reply, ["text"])
      })
      const exact = await server.request("POST", "/api/v1/prompts", {
        key,
        project: projectId,
        body: { monitor_id: monitorId, text: repeat(2000, "p") }
      })
      expect(exact.status).toBe(201)
      expect(exact.body.data.text).toBe(repeat(2000, "p"))
      const padded = await server.request("POST", "/api/v1/prompts", {
        key,
        project: projectId,
        body: { monitor_id: monitorId, text: `  ${repeat(2000, "q")}  ` }
      })
      expect(padded.status).toBe(201)
      expect(padded.body.data.text).toBe(repeat(2000, "q"))
      await refused(target("PATCH /prompts/{prompt}"), { body: { text: repeat(2001) } }, (reply) => expectInvalid(reply, ["text"]))
    })

    it("organization name: 256 or whitespace is a 422, 255 is accepted", async () => {
      const t = target("PATCH /organization")
      await refused(t, { body: { name: repeat(256) } }, (reply) => expectInvalid(reply, ["name"]))
      await refused(t, { body: { name: "  " } }, (reply) => expectInvalid(reply, ["name"]))
      const ok = await server.request("PATCH", "/api/v1/organization", { key, body: { name: `  ${repeat(255, "o")}  ` } })
      expect(ok.status).toBe(200)
      expect(ok.body.data).toMatchObject({ id: organizationId, name: repeat(255, "o") })
      const back = await server.request("PATCH", "/api/v1/organization", { key, body: { name: "Inputs" } })
      expect(back.status).toBe(200)
    })
  })

  describe("unknown body fields are ignored", () => {
    it("POST /tags with id, project_id, created_at: 201, none of them written", async () => {
      const reply = await server.request("POST", "/api/v1/tags", {
        key,
        project: projectId,
        body: { name: "Extra", color: "#ABCDEF", id: 999, project_id: siblingProjectId, created_at: "x", updated_at: 5, junk: { a: 1 } }
      })
      expect(reply.status).toBe(201)
      expect(reply.body.data.id).not.toBe(999)
      expect(reply.body.data).toMatchObject({ name: "Extra", color: "#abcdef" })
      expect(reply.body.data).not.toHaveProperty("junk")
      expect(reply.body.data).not.toHaveProperty("project_id")
      expect(reply.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      expect(Math.abs(Date.parse(reply.body.data.created_at) - Date.now())).toBeLessThan(5 * 60_000)
      const own = await server.request("GET", `/api/v1/tags/${reply.body.data.id}`, { key, project: projectId })
      expect(own.status).toBe(200)
      const other = await server.request("GET", `/api/v1/tags/${reply.body.data.id}`, { key, project: siblingProjectId })
      expect(other.status).toBe(404)
    })

    it("POST /projects with organization_id and brand_id: they are not taken from the body", async () => {
      const reply = await server.request("POST", "/api/v1/projects", {
        key,
        body: { name: "Extra project", organization_id: 999, id: 999, brand_id: 5, created_at: "yesterday" }
      })
      expect(reply.status).toBe(201)
      expect(reply.body.data).toMatchObject({ organization_id: organizationId, brand_id: null, domain: null })
      expect(reply.body.data.id).not.toBe(999)
    })

    it("PATCH /tags with id and project_id: only the name changes", async () => {
      const created = await server.request("POST", "/api/v1/tags", { key, project: projectId, body: { name: "Movable" } })
      const id = created.body.data.id
      const reply = await server.request("PATCH", `/api/v1/tags/${id}`, {
        key,
        project: projectId,
        body: { id: id + 1000, project_id: siblingProjectId, name: "Moved?" }
      })
      expect(reply.status).toBe(200)
      expect(reply.body.data).toMatchObject({ id, name: "Moved?" })
      expect((await server.request("GET", `/api/v1/tags/${id}`, { key, project: projectId })).status).toBe(200)
    })

    it("POST /prompts with id and project_id: 201 in the active project", async () => {
      const reply = await server.request("POST", "/api/v1/prompts", {
        key,
        project: projectId,
        body: { monitor_id: monitorId, text: "Extra?", id: 999, project_id: siblingProjectId, created_at: "x" }
      })
      expect(reply.status).toBe(201)
      expect(reply.body.data).toMatchObject({ monitor_id: monitorId, text: "Extra?", tags: [] })
      expect(reply.body.data.id).not.toBe(999)
    })
  })

  describe("path ids that are not positive integers", () => {
    const badIds = ["abc", "0", "-1", "1.5", "1e3", "99999999999999999999", "9223372036854775808", "9007199254740993", "99999999"]
    const resources = [
      ["tags", "Tag", () => ({ name: "Whatever" })],
      ["prompts", "Prompt", () => ({ text: "Whatever" })],
      ["monitors", "Monitor", () => ({ name: "Whatever" })]
    ] as const

    it.each(resources.flatMap(([path, resource, body]) => badIds.map((id) => [path, id, resource, body] as const)))(
      "/%s/%s: GET, PATCH and DELETE are 404 <Resource> not found",
      async (path, id, resource, body) => {
        const message = `${resource} not found`
        const get = await server.request("GET", `/api/v1/${path}/${id}`, { key, project: projectId })
        expectMessageOnly(get, 404, message)
        const patch = await server.request("PATCH", `/api/v1/${path}/${id}`, { key, project: projectId, body: body() })
        expectMessageOnly(patch, 404, message)
        const del = await server.request("DELETE", `/api/v1/${path}/${id}`, { key, project: projectId })
        expectMessageOnly(del, 404, message)
      }
    )

    it.each(badIds)("/projects/%s: GET, PATCH and DELETE are 404 Project not found", async (id) => {
      expectMessageOnly(await server.request("GET", `/api/v1/projects/${id}`, { key }), 404, "Project not found")
      expectMessageOnly(
        await server.request("PATCH", `/api/v1/projects/${id}`, { key, body: { name: "X" } }),
        404,
        "Project not found"
      )
      expectMessageOnly(await server.request("DELETE", `/api/v1/projects/${id}`, { key }), 404, "Project not found")
    })

    it("resources of another project or organization are not found", async () => {
      expectMessageOnly(
        await server.request("GET", `/api/v1/tags/${siblingTagId}`, { key, project: projectId }),
        404,
        "Tag not found"
      )
      expectMessageOnly(
        await server.request("GET", `/api/v1/monitors/${siblingMonitorId}`, { key, project: projectId }),
        404,
        "Monitor not found"
      )
      expectMessageOnly(await server.request("GET", `/api/v1/projects/${foreignProjectId}`, { key }), 404, "Project not found")
      expectMessageOnly(
        await server.request("PATCH", `/api/v1/projects/${foreignProjectId}`, { key, body: { name: "Mine now" } }),
        404,
        "Project not found"
      )
    })

    it("attach and detach with bad ids: Prompt not found / Tag not found", async () => {
      for (const method of ["POST", "DELETE"]) {
        expectMessageOnly(
          await server.request(method, `/api/v1/prompts/abc/tags/${tagId}`, { key, project: projectId }),
          404,
          "Prompt not found"
        )
        expectMessageOnly(
          await server.request(method, `/api/v1/prompts/${promptId}/tags/abc`, { key, project: projectId }),
          404,
          "Tag not found"
        )
        expectMessageOnly(
          await server.request(method, `/api/v1/prompts/${promptId}/tags/-1`, { key, project: projectId }),
          404,
          "Tag not found"
        )
        expectMessageOnly(
          await server.request(method, `/api/v1/prompts/${promptId}/tags/${siblingTagId}`, { key, project: projectId }),
          404,
          "Tag not found"
        )
      }
    })

    it("PATCH on a bad id with an invalid body: validation (422) comes before the path resource (404)", async () => {
      const reply = await server.request("PATCH", "/api/v1/tags/abc", { key, project: projectId, body: { name: 42 } })
      expectInvalid(reply, ["name"])
    })
  })

  describe("Service-Project-Id", () => {
    const endpoints = [
      ["GET", "/api/v1/tags"],
      ["GET", "/api/v1/prompts"],
      ["GET", "/api/v1/monitors"],
      ["POST", "/api/v1/tags"],
      ["GET", "/api/v1/tags/1"]
    ] as const

    it.each(endpoints)("%s %s without the header: 400 Missing required header Service-Project-Id", async (method, path) => {
      const reply = await server.request(method, path, { key, body: method === "POST" ? { name: "Headless" } : undefined })
      expectMessageOnly(reply, 400, "Missing required header Service-Project-Id")
    })

    it.each(endpoints.flatMap(([method, path]) => ["abc", "0", "-3", "1.5", "1e2", "0x10"].map((value) => [method, path, value] as const)))(
      "%s %s with Service-Project-Id %j: 400 Invalid header Service-Project-Id",
      async (method, path, value) => {
        const reply = await server.request(method, path, {
          key,
          project: value,
          body: method === "POST" ? { name: "Badly headed" } : undefined
        })
        expectMessageOnly(reply, 400, "Invalid header Service-Project-Id")
      }
    )

    it.each(endpoints)("%s %s with an absent or foreign project: 404 Project not found", async (method, path) => {
      const body = method === "POST" ? { name: "Nowhere" } : undefined
      expectMessageOnly(await server.request(method, path, { key, project: 987654321, body }), 404, "Project not found")
      expectMessageOnly(await server.request(method, path, { key, project: foreignProjectId, body }), 404, "Project not found")
    })

    it("a key limited to some projects cannot act in another project of its organization", async () => {
      const limited = (await server.createKey(organizationId, ["*"], { projectIds: [projectId] })).key
      expect((await server.request("GET", "/api/v1/tags", { key: limited, project: projectId })).status).toBe(200)
      expectMessageOnly(
        await server.request("GET", "/api/v1/tags", { key: limited, project: siblingProjectId }),
        404,
        "Project not found"
      )
      expectMessageOnly(
        await server.request("GET", `/api/v1/projects/${siblingProjectId}`, { key: limited }),
        404,
        "Project not found"
      )
    })

    it("the header is checked before the body: missing header with a bad body is a 400, foreign project a 404", async () => {
      expectMessageOnly(
        await server.request("POST", "/api/v1/tags", { key, body: { name: 42 } }),
        400,
        "Missing required header Service-Project-Id"
      )
      expectMessageOnly(
        await server.request("POST", "/api/v1/tags", { key, project: foreignProjectId, body: { name: 42 } }),
        404,
        "Project not found"
      )
    })
  })

  describe("query validation", () => {
    it.each(["abc", "0", "-1", "1.5"])("GET /prompts?monitor_id=%s: 422 errors.monitor_id", async (value) => {
      const reply = await server.request("GET", `/api/v1/prompts?monitor_id=${value}`, { key, project: projectId })
      expectInvalid(reply, ["monitor_id"])
    })

    it("GET /prompts?monitor_id of another project's monitor: 422 errors.monitor_id", async () => {
      const reply = await server.request("GET", `/api/v1/prompts?monitor_id=${siblingMonitorId}`, { key, project: projectId })
      expectInvalid(reply, ["monitor_id"])
    })

    it("GET /prompts?monitor_id of the project's monitor filters", async () => {
      const reply = await server.request("GET", `/api/v1/prompts?monitor_id=${monitorId}`, { key, project: projectId })
      expect(reply.status).toBe(200)
      expect(reply.body.data.length).toBeGreaterThan(0)
      expect(reply.body.data.every((prompt: { monitor_id: number }) => prompt.monitor_id === monitorId)).toBe(true)
    })
  })

  describe("unknown routes", () => {
    it.each([
      ["GET", "/api/v1/nope"],
      ["POST", "/api/v1/nope"],
      ["GET", "/api/v1/tags/1/nope"],
      ["GET", "/nope"],
      ["GET", "/api/v2/tags"]
    ])("%s %s: 404 Not found, with or without a key", async (method, path) => {
      expectMessageOnly(await server.request(method, path), 404, "Not found")
      const withKey = await server.request(method, path, { key, project: projectId })
      expectMessageOnly(withKey, 404, "Not found")
      expect(withKey.headers.get("x-request-id")).toBeTruthy()
    })
  })

  describe("authentication", () => {
    // RFC 6750, section 3: the scheme alone without credentials; what was expected for a malformed header
    // (invalid_request) or key (invalid_token); one description for every well-formed key refused.
    const NO_KEY_AFTER_BEARER = 'Bearer error="invalid_request", error_description="Expected a key after Bearer: Authorization: Bearer bvm_..."'
    const OTHER_SCHEME = 'Bearer error="invalid_request", error_description="Only the Bearer scheme is accepted: Authorization: Bearer bvm_..."'
    const NO_SCHEME = 'Bearer error="invalid_request", error_description="The Bearer scheme is missing: send Authorization: Bearer bvm_..."'
    const NOT_A_KEY = 'Bearer error="invalid_token", error_description="A key is bvm_ followed by 40 letters and digits."'
    const UNUSABLE = 'Bearer error="invalid_token", error_description="The key is unknown, revoked or expired."'
    const expectUnauthenticated = (reply: Reply, challenge = "Bearer") => {
      expect(reply.status).toBe(401)
      expect(reply.body).toEqual(UNAUTHENTICATED)
      expect(reply.headers.get("www-authenticate")).toBe(challenge)
    }

    it.each([
      ["no Authorization header", undefined, "Bearer"],
      ["an empty Authorization header", "", "Bearer"],
      ["Bearer with nothing", "Bearer", NO_KEY_AFTER_BEARER],
      ["Bearer and a space", "Bearer ", NO_KEY_AFTER_BEARER],
      ["Bearer garbage", "Bearer garbage", NOT_A_KEY],
      ["Basic credentials", "Basic xxx", OTHER_SCHEME],
      ["Basic with user:password", `Basic ${Buffer.from("user:password").toString("base64")}`, OTHER_SCHEME],
      ["a malformed bvm_ key", "Bearer bvm_short", NOT_A_KEY],
      ["a well-formed unknown key", `Bearer ${wellFormedUnknownKey()}`, UNUSABLE]
    ])("%s: 401 Unauthenticated. saying what was wrong in WWW-Authenticate", async (_, authorization, challenge) => {
      for (const [method, path, project] of [
        ["GET", "/api/v1/me", undefined],
        ["GET", "/api/v1/tags", projectId],
        ["GET", "/api/v1/projects", undefined],
        ["PATCH", "/api/v1/organization", undefined]
      ] as const) {
        const reply = await server.request(method, path, {
          project,
          headers: authorization === undefined ? {} : { authorization },
          body: method === "PATCH" ? { name: "Hijacked" } : undefined
        })
        expectUnauthenticated(reply, challenge)
        expect(reply.headers.get("x-request-id")).toBeTruthy()
      }
    })

    // docs/api.md: anything but `Authorization: Bearer <key>` is a 401. These prefixes are as long as
    // "Bearer ", so a scheme-blind `slice("Bearer ".length)` finds the key behind them.
    it.each(["Digest ", "Token: ", "Basic  ", "XXXXXXX"])("a valid key behind %j instead of Bearer: 401", async (prefix) => {
      const valid = (await server.createKey(organizationId, ["*"])).key
      expectUnauthenticated(await server.request("GET", "/api/v1/me", { headers: { authorization: `${prefix}${valid}` } }), OTHER_SCHEME)
    })

    it("a valid key without any scheme: 401 saying the Bearer scheme is missing", async () => {
      const valid = (await server.createKey(organizationId, ["*"])).key
      expectUnauthenticated(await server.request("GET", "/api/v1/me", { headers: { authorization: valid } }), NO_SCHEME)
      // The same for a key that does not exist: the header says nothing of which keys exist.
      expectUnauthenticated(await server.request("GET", "/api/v1/me", { headers: { authorization: wellFormedUnknownKey() } }), NO_SCHEME)
    })

    it("a revoked, an expired and an unknown key get the same answer, header included", async () => {
      const revoked = await server.createKey(organizationId, ["*"])
      await server.revokeKey(revoked.id)
      const expired = await server.createKey(organizationId, ["*"], { expiresAt: new Date(Date.now() - 60_000) })
      for (const key of [revoked.key, expired.key, wellFormedUnknownKey()]) {
        const reply = await server.request("GET", "/api/v1/me", { key })
        expectUnauthenticated(reply, UNUSABLE)
      }
    })

    it("the scheme is case-insensitive (RFC 9110): `bearer <key>` works", async () => {
      const valid = (await server.createKey(organizationId, ["*"])).key
      const reply = await server.request("GET", "/api/v1/me", { headers: { authorization: `bearer ${valid}` } })
      expect(reply.status).toBe(200)
    })

    it("a revoked key: 401", async () => {
      const created = await server.createKey(organizationId, ["*"])
      expect((await server.request("GET", "/api/v1/me", { key: created.key })).status).toBe(200)
      await server.revokeKey(created.id)
      expectUnauthenticated(await server.request("GET", "/api/v1/me", { key: created.key }), UNUSABLE)
      expectUnauthenticated(await server.request("GET", "/api/v1/tags", { key: created.key, project: projectId }), UNUSABLE)
    })

    it("an expired key: 401; a key expiring in the future works", async () => {
      const expired = await server.createKey(organizationId, ["*"], { expiresAt: new Date(Date.now() - 1000) })
      expectUnauthenticated(await server.request("GET", "/api/v1/me", { key: expired.key }), UNUSABLE)
      expectUnauthenticated(await server.request("GET", "/api/v1/tags", { key: expired.key, project: projectId }), UNUSABLE)
      const future = await server.createKey(organizationId, ["*"], { expiresAt: new Date(Date.now() + 3_600_000) })
      const me = await server.request("GET", "/api/v1/me", { key: future.key })
      expect(me.status).toBe(200)
      expect(me.body.data.key.id).toBe(future.id)
      expect((await server.request("GET", "/api/v1/tags", { key: future.key, project: projectId })).status).toBe(200)
    })

    it("authentication is checked first: no key beats a missing header, a bad body and malformed JSON", async () => {
      expectUnauthenticated(await server.request("GET", "/api/v1/tags"))
      expectUnauthenticated(await server.request("POST", "/api/v1/tags", { project: "abc", body: { name: 42 } }))
      expectUnauthenticated(await server.request("POST", "/api/v1/projects", { rawBody: "{", headers: json }))
      expectUnauthenticated(await server.request("GET", "/api/v1/tags/abc", { project: projectId }))
    })

    it("a key without the ability: 403 with required_ability, before the project header", async () => {
      const reader = (await server.createKey(organizationId, ["tags:read"])).key
      const reply = await server.request("POST", "/api/v1/tags", { key: reader, body: { name: 42 } })
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual({ message: "This action is unauthorized.", required_ability: "tags:write" })
      expect((await server.request("GET", "/api/v1/tags", { key: reader, project: projectId })).status).toBe(200)
    })
  })

  describe("request id and rate-limit headers", () => {
    it("every response carries x-request-id", async () => {
      const replies = [
        await server.request("GET", "/api/v1/me", { key }),
        await server.request("GET", "/api/v1/me"),
        await server.request("GET", "/api/v1/nope"),
        await server.request("GET", "/api/v1/tags", { key }),
        await server.request("POST", "/api/v1/tags", { key, project: projectId, body: { name: 42 } }),
        await server.request("POST", "/api/v1/tags", { key, project: projectId, rawBody: "{", headers: json }),
        await server.request("GET", "/api/v1/tags/abc", { key, project: projectId })
      ]
      expect(replies.map((reply) => reply.status)).toEqual([200, 401, 404, 400, 422, 400, 404])
      const ids = replies.map((reply) => reply.headers.get("x-request-id"))
      for (const id of ids) expect(id).toMatch(/^\S{8,}$/)
      expect(new Set(ids).size).toBe(ids.length)
    })

    it("a client's X-Request-Id is echoed back, on success and on error", async () => {
      const ok = await server.request("GET", "/api/v1/me", { key, headers: { "x-request-id": "abc-123" } })
      expect(ok.status).toBe(200)
      expect(ok.headers.get("x-request-id")).toBe("abc-123")
      const unauthenticated = await server.request("GET", "/api/v1/me", { headers: { "x-request-id": "abc-124" } })
      expect(unauthenticated.status).toBe(401)
      expect(unauthenticated.headers.get("x-request-id")).toBe("abc-124")
      const invalid = await server.request("POST", "/api/v1/tags", {
        key,
        project: projectId,
        body: {},
        headers: { "x-request-id": "abc-125" }
      })
      expect(invalid.status).toBe(422)
      expect(invalid.headers.get("x-request-id")).toBe("abc-125")
    })

    const rateLimitedReplies = async () => {
      const own = (await server.createKey(organizationId, ["*"])).key
      const replies = [
        await server.request("GET", "/api/v1/me", { key: own }),
        await server.request("GET", "/api/v1/tags?per_page=100", { key: own, project: projectId }),
        await server.request("GET", "/api/v1/tags/abc", { key: own, project: projectId }),
        await server.request("POST", "/api/v1/tags", { key: own, project: projectId, body: {} }),
        await server.request("GET", "/api/v1/tags", { key: own }),
        await server.request("GET", "/api/v1/tags", { key: own, project: foreignProjectId })
      ]
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 404, 422, 400, 404])
      return replies
    }

    it("authenticated responses carry x-ratelimit-limit and x-ratelimit-remaining, whatever the status", async () => {
      const replies = await rateLimitedReplies()
      const limits = replies.map((reply) => reply.headers.get("x-ratelimit-limit"))
      for (const limit of limits) expect(limit).toMatch(/^[1-9]\d*$/)
      expect(new Set(limits).size).toBe(1)
      for (const reply of replies) {
        const remaining = Number(reply.headers.get("x-ratelimit-remaining"))
        expect(reply.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/)
        expect(remaining).toBeLessThan(Number(limits[0]))
      }
    })

    // The budget refills continuously (RATE_LIMIT_PER_MINUTE per minute, see README "Rate limits"), so at
    // this server's 1,000,000 a minute each request finds it refilled: remaining is the burst left now,
    // one below the limit. The countdown itself is asserted at 3 a minute below.
    it("x-ratelimit-remaining is the burst left now, below the limit", async () => {
      const replies = await rateLimitedReplies()
      for (const reply of replies) {
        const limit = Number(reply.headers.get("x-ratelimit-limit"))
        const remaining = Number(reply.headers.get("x-ratelimit-remaining"))
        expect(limit).toBe(1_000_000)
        expect(Number.isInteger(remaining)).toBe(true)
        expect(remaining).toBeGreaterThanOrEqual(0)
        expect(remaining).toBeLessThan(limit)
      }
    })
  })
})

describe.each(backends)("rate limit and server errors (%s)", (backend) => {
  let server: TestServer
  let organizationId: number

  beforeAll(async () => {
    server = await startServer(backend, { rateLimitPerMinute: 3 })
    organizationId = (await server.createOrganization("Limited")).id
  })
  afterAll(() => server.close())

  it("3 requests a minute per key: remaining 2, 1, 0, then 429 with Retry-After; another key still passes", async () => {
    const first = (await server.createKey(organizationId, ["*"])).key
    const second = (await server.createKey(organizationId, ["*"])).key
    const remaining: Array<string | null> = []
    for (let i = 0; i < 3; i++) {
      const reply = await server.request("GET", "/api/v1/me", { key: first })
      expect(reply.status).toBe(200)
      expect(reply.headers.get("x-ratelimit-limit")).toBe("3")
      remaining.push(reply.headers.get("x-ratelimit-remaining"))
    }
    expect(remaining).toEqual(["2", "1", "0"])

    const limited = await server.request("GET", "/api/v1/me", { key: first })
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ message: "Too Many Requests" })
    const retryAfter = limited.headers.get("retry-after")
    expect(retryAfter).toMatch(/^[1-9]\d*$/)
    expect(Number(retryAfter)).toBeLessThanOrEqual(60)
    expect(limited.headers.get("x-ratelimit-limit")).toBe("3")
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
    expect(limited.headers.get("x-request-id")).toBeTruthy()

    // Still limited, whatever the endpoint.
    const again = await server.request("GET", "/api/v1/projects", { key: first })
    expect(again.status).toBe(429)
    expect(again.body).toEqual({ message: "Too Many Requests" })

    // The limit is per key: the organization's other key is untouched.
    const other = await server.request("GET", "/api/v1/me", { key: second })
    expect(other.status).toBe(200)
    expect(other.headers.get("x-ratelimit-remaining")).toBe("2")
  })

  it("every request costs 1 whatever its page size", async () => {
    const k = (await server.createKey(organizationId, ["*"])).key
    const small = await server.request("GET", "/api/v1/projects?per_page=1", { key: k })
    const large = await server.request("GET", "/api/v1/projects?per_page=100", { key: k })
    expect(small.headers.get("x-ratelimit-remaining")).toBe("2")
    expect(large.headers.get("x-ratelimit-remaining")).toBe("1")
  })

  // Only a SQL backend can be broken from the outside (a renamed table); the memory backend has no such failure.
  if (backend !== "memory") it("a 500 shows no internals, only the request id of its X-Request-Id header", async () => {
    const k = (await server.createKey(organizationId, ["*"])).key
    const project = await server.request("POST", "/api/v1/projects", { key: k, body: { name: "Breakable" } })
    expect(project.status).toBe(201)
    await server.sql!("ALTER TABLE tags RENAME TO tags_broken_on_purpose")
    try {
      const reply = await server.request("GET", "/api/v1/tags", {
        key: k,
        project: project.body.data.id,
        headers: { "x-request-id": "boom-500" }
      })
      expect(reply.status).toBe(500)
      expect(reply.body).toEqual({ message: "Server Error", request_id: "boom-500" })
      expect(reply.headers.get("x-request-id")).toBe("boom-500")
      expect(reply.text).not.toMatch(/tags_broken_on_purpose|relation|SqlError|select|stack|\.ts/i)
    } finally {
      await server.sql!("ALTER TABLE tags_broken_on_purpose RENAME TO tags")
    }
  })
})
