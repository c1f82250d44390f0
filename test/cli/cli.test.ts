import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs/promises"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiKeysRepo } from "../../src/ApiKeys/Repo.ts"
import { Settings } from "../../src/Config.ts"
import * as Database from "../../src/Database/Database.ts"
import { hashKey } from "../../src/Domain/ApiKey.ts"
import { OrganizationsRepo } from "../../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../../src/Projects/Repo.ts"
import * as Repositories from "../../src/Repositories.ts"
import { migrations } from "../../migrations/index.ts"
import { describeUrl } from "../../src/Cli/Environment.ts"

/**
 * The CLI as a user runs it (its build, dist/server/cli.js, made by the run's setup): a child process
 * per command. Each child costs a second or so (module loading, and the first one boots PGlite), so
 * runs are few and each checks several things.
 *
 * Against the embedded database, the first command opens a fresh DATA_DIR itself (migrating it); the
 * test process then opens that directory like a running server would, and the later commands share it
 * through its socket. With DATABASE_URL set (CI's PostgreSQL run), everything uses that database, which
 * may hold earlier rows: no id is assumed.
 */

const root = fileURLToPath(new URL("../..", import.meta.url))
const databaseUrl = Option.fromNullable(process.env.DATABASE_URL).pipe(Option.filter((url) => url.trim() !== ""))
const TIMEOUT = 60_000

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const cli = (dataDir: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir }
    if (Option.isNone(databaseUrl)) delete childEnv.DATABASE_URL
    // The default (quiet) logging unless a test asks for more.
    delete childEnv.LOG_LEVEL
    Object.assign(childEnv, env)
    execFile(process.execPath, ["dist/server/cli.js", ...args], { cwd: root, env: childEnv }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

/** Exactly one line on stdout, which is JSON. */
const jsonLine = (run: Run): any => {
  expect(run.stderr).not.toMatch(/\n\s+at /)
  expect(run.code, run.stderr).toBe(0)
  expect(run.stdout.endsWith("\n")).toBe(true)
  expect(run.stdout.trimEnd().split("\n")).toHaveLength(1)
  return JSON.parse(run.stdout)
}

/** A failure: exit code 1, nothing on stdout, one clean message (no stack trace) on stderr. */
const failure = (run: Run): string => {
  expect(run.code).toBe(1)
  expect(run.stdout).toBe("")
  expect(run.stderr).not.toMatch(/\n\s+at /)
  expect(run.stderr.trim()).not.toBe("")
  return run.stderr
}

/** `0001_data_model` → `1_data_model`, as the migrator reports them. */
const allMigrations = Object.keys(migrations)
  .map((key) => /^(\d+)_(.+)$/.exec(key)!)
  .sort((a, b) => Number(a[1]) - Number(b[1]))
  .map((match) => `${Number(match[1])}_${match[2]}`)

describe("cli", () => {
  let dataDir: string
  /** The database as seen from the test, opened after the first command (which must open it itself). */
  let db: ManagedRuntime.ManagedRuntime<OrganizationsRepo | ApiKeysRepo | ProjectsRepo | SqlClient.SqlClient, unknown> | undefined
  const database = () => {
    db ??= ManagedRuntime.make(
      Repositories.layerSql.pipe(
        Layer.provideMerge(Database.layer({ shareRunning: false })),
        Layer.provide(Settings.layerWith({ dataDir, databaseUrl: Option.map(databaseUrl, Redacted.make) }))
      )
    )
    return db
  }
  /** The organization the key tests work in. */
  let organization: { readonly id: number; readonly name: string }

  beforeAll(async () => {
    dataDir = await Fs.mkdtemp(Path.join(Os.tmpdir(), "bvm-cli-"))
  })
  afterAll(async () => {
    await db?.dispose()
    await Fs.rm(dataDir, { recursive: true, force: true })
  })

  it("orgs create --json works on a fresh data directory and prints exactly {id, name}", async () => {
    // Debug logging on: the logs must still stay off stdout.
    const run = await cli(dataDir, ["orgs", "create", "--json", "  Acme  "], { LOG_LEVEL: "debug" })
    const created = jsonLine(run)
    expect(Object.keys(created)).toEqual(["id", "name"])
    expect(created).toEqual({ id: expect.any(Number), name: "Acme" })
    expect(run.stderr).toMatch(/level=DEBUG/)
    expect(run.stderr).toMatch(/Migrations complete/)
    // The database it wrote to, named on stderr: here the embedded one, which no server held.
    expect(run.stderr).toContain(
      Option.isSome(databaseUrl)
        ? `Database: ${describeUrl(databaseUrl.value)} (DATABASE_URL)`
        : `Database: the embedded database in ${Path.resolve(dataDir)}, opened by this command (no running server holds it; a server started with DATABASE_URL does not see it)`
    )
  }, TIMEOUT)

  it("names a PostgreSQL database by user, host, port and name, never its password", () => {
    expect(describeUrl("postgres://bvm:s3cret@db.internal:6543/brand?sslmode=require")).toBe("PostgreSQL bvm@db.internal:6543/brand")
    expect(describeUrl("postgresql://postgres@localhost/postgres?host=%2Ftmp%2Fsock")).toBe("PostgreSQL postgres@localhost:5432/postgres")
    expect(describeUrl("postgresql:///bvm?host=/var/run/postgresql")).toBe("PostgreSQL /var/run/postgresql:5432/bvm")
    expect(describeUrl("not a url")).toBe("PostgreSQL (DATABASE_URL)")
  })

  it("migrate --json lists the migrations it ran", async () => {
    if (Option.isSome(databaseUrl)) {
      // One PostgreSQL database, migrated by the first command.
      expect(jsonLine(await cli(dataDir, ["migrate", "--json"]))).toEqual({ applied: [] })
    } else {
      // Back to an empty schema (only ever on the test's own embedded database): a second fresh data
      // directory would cost another PGlite boot.
      await database().runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql`DROP SCHEMA public CASCADE`.pipe(Effect.zipRight(sql`CREATE SCHEMA public`))))
      expect(allMigrations[0]).toBe("1_data_model")
      expect(jsonLine(await cli(dataDir, ["migrate", "--json"]))).toEqual({ applied: allMigrations })
    }
    organization = await database().runPromise(Effect.flatMap(OrganizationsRepo, (repo) => repo.create("Acme")))
  }, TIMEOUT)

  it("keys create, list and revoke", async () => {
    const project = await database().runPromise(
      Effect.flatMap(ProjectsRepo, (repo) => repo.create(organization.id, { name: "Site", domain: null }))
    )

    const createRun = await cli(dataDir, [
        "keys",
        "create",
        "--org",
        String(organization.id),
        "--name",
        "ci",
        "--abilities",
        " projects:read, monitors:read,projects:read ",
        "--projects",
        String(project.id),
        "--expires-in-days",
        "30",
        "--json"
      ])
    const created = jsonLine(createRun)
    // Every command that writes names its database on stderr; stdout stays the one JSON line.
    expect(createRun.stderr).toContain(
      Option.isSome(databaseUrl) ? "Database: PostgreSQL " : `Database: the embedded database in ${Path.resolve(dataDir)}, through the server that holds it`
    )
    expect(Object.keys(created)).toEqual(["id", "key"])
    expect(created.key).toMatch(/^bvm_[0-9A-Za-z]{40}$/)
    const stored = Option.getOrThrow(
      await database().runPromise(Effect.flatMap(ApiKeysRepo, (repo) => repo.findByHash(hashKey(created.key))))
    )
    expect(stored).toMatchObject({
      id: created.id,
      organization_id: organization.id,
      name: "ci",
      prefix: created.key.slice(0, 8),
      abilities: ["projects:read", "monitors:read"],
      project_ids: [project.id],
      revoked_at: null
    })
    const days = (stored.expires_at!.getTime() - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)

    const listRun = await cli(dataDir, ["keys", "list", "--org", String(organization.id), "--json"])
    expect(listRun.stdout).not.toContain(created.key)
    expect(listRun.stdout).not.toContain(hashKey(created.key))
    const listed = jsonLine(listRun)
    expect(listed).toEqual([
      {
        id: created.id,
        name: "ci",
        prefix: created.key.slice(0, 8),
        abilities: ["projects:read", "monitors:read"],
        project_ids: [project.id],
        expires_at: stored.expires_at!.toISOString(),
        revoked: false,
        revoked_at: null,
        last_used_at: null,
        created_at: stored.created_at.toISOString()
      }
    ])

    // A read names no database; a write does.
    expect(listRun.stderr).not.toContain("Database:")
    const revokeRun = await cli(dataDir, ["keys", "revoke", String(created.id), "--json"])
    expect(jsonLine(revokeRun)).toEqual({ id: created.id, revoked: true })
    expect(revokeRun.stderr).toMatch(/^Database: /m)
    const after = await database().runPromise(Effect.flatMap(ApiKeysRepo, (repo) => repo.findByHash(hashKey(created.key))))
    expect(Option.getOrThrow(after).revoked_at).toBeInstanceOf(Date)
  }, TIMEOUT)

  it("keys create refuses a 1,001st active key of an organization with a clean message; a revocation makes room", async () => {
    const crowded = await database().runPromise(Effect.gen(function*() {
      const org = yield* (yield* OrganizationsRepo).create("Crowded")
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities)
        SELECT ${org.id}, 'seed', encode(sha256(('crowded' || g || random())::bytea), 'hex'), 'bvm_seed', ARRAY['tags:read']
        FROM generate_series(1, 1000) g`
      return org
    }))
    const args = ["keys", "create", "--org", String(crowded.id), "--name", "one more", "--abilities", "tags:read", "--json"]
    // Past the line naming the database written to (src/Cli/Environment.ts).
    expect(failure(await cli(dataDir, args)).replace(/^Database: .*\n/, "").trim()).toBe(
      `Organization ${crowded.id} already has 1000 active API keys, the most it may have: revoke one (keys revoke ID) to make another.`
    )
    await database().runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`UPDATE api_keys SET revoked_at = now() WHERE id = (SELECT min(id) FROM api_keys WHERE organization_id = ${crowded.id})`))
    expect(jsonLine(await cli(dataDir, args))).toEqual({ id: expect.any(Number), key: expect.any(String) })
  }, TIMEOUT)

  it("refuses bad input with a clean message and exit code 1; plain output; idempotent migrate", async () => {
    const [otherProject, lastKeyId] = await database().runPromise(Effect.gen(function*() {
      const other = yield* (yield* OrganizationsRepo).create("Foreign")
      const project = yield* (yield* ProjectsRepo).create(other.id, { name: "Theirs", domain: null })
      const keys = yield* (yield* ApiKeysRepo).listByOrganization(organization.id)
      return [project, Math.max(0, ...keys.map((key) => key.id))] as const
    }))
    const org = String(organization.id)
    // Independent runs, so in parallel.
    const [badAbility, unknownOrg, foreignProject, unknownKey, plainList, migrated] = await Promise.all([
      cli(dataDir, ["keys", "create", "--org", org, "--name", "x", "--abilities", "projects:read,bogus:thing", "--json"]),
      cli(dataDir, ["keys", "create", "--org", String(Number.MAX_SAFE_INTEGER), "--name", "x", "--abilities", "*", "--json"]),
      cli(dataDir, ["keys", "create", "--org", org, "--name", "x", "--abilities", "*", "--projects", String(otherProject.id)]),
      cli(dataDir, ["keys", "revoke", String(lastKeyId + 1_000_000)]),
      cli(dataDir, ["keys", "list", "--org", org]),
      cli(dataDir, ["migrate", "--json"])
    ])
    expect(failure(badAbility)).toContain("bogus:thing")
    expect(failure(unknownOrg)).toContain(`Organization ${Number.MAX_SAFE_INTEGER} not found`)
    expect(failure(foreignProject)).toContain(`${otherProject.id} is not a project of organization ${org}`)
    expect(failure(unknownKey)).toContain(`API key ${lastKeyId + 1_000_000} not found`)
    expect(plainList.code).toBe(0)
    const [header, row, ...rest] = plainList.stdout.trimEnd().split("\n")
    expect(header).toMatch(/^ID +NAME +PREFIX +ABILITIES +PROJECTS +EXPIRES_AT +REVOKED +LAST_USED_AT$/)
    expect(row).toMatch(/^\d+ +ci +bvm_\w{4} +projects:read,monitors:read +\d+ +\S+Z +yes \(\S+Z\) +-$/)
    expect(rest).toEqual([])
    expect(jsonLine(migrated)).toEqual({ applied: [] })
    expect(migrated.stderr).toMatch(/^Database: /m)

    const keys = await database().runPromise(Effect.flatMap(ApiKeysRepo, (repo) => repo.listByOrganization(organization.id)))
    expect(keys.map((key) => key.name)).toEqual(["ci"])
  }, TIMEOUT)
})
