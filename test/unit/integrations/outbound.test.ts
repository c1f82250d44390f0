import { createServer, get, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { addressVerdict } from "../../../src/Integrations/OutboundAddress.ts"
import {
  checkUrl,
  guardedLookup,
  OutboundRefused,
  type OutboundPolicy,
  redirectTarget,
  resolveTarget,
  type Resolver,
  strictPolicy
} from "../../../src/Integrations/OutboundUrl.ts"

const allowPrivate: OutboundPolicy = { allowHttp: true, allowPrivate: true }

const refusedRange = (address: string): string | null => {
  const verdict = addressVerdict(address, false)
  return verdict.allowed ? null : verdict.range
}

describe("outbound addresses", () => {
  it("allows public IPv4 and IPv6 addresses", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "93.184.215.14", "2606:4700:4700::1111", "2a00:1450:4001:81c::200e", "::ffff:8.8.8.8"]) {
      expect(refusedRange(address), address).toBeNull()
    }
  })

  it("refuses loopback, private, link-local, CGNAT, unspecified, multicast and reserved IPv4", () => {
    const cases: Record<string, string> = {
      "127.0.0.1": "loopback",
      "127.255.255.254": "loopback",
      "10.0.0.1": "private",
      "172.16.5.4": "private",
      "172.31.255.255": "private",
      "192.168.1.1": "private",
      "169.254.1.1": "linkLocal",
      "100.64.0.1": "carrierGradeNat",
      "100.127.255.255": "carrierGradeNat",
      "0.0.0.0": "unspecified",
      "0.1.2.3": "unspecified",
      "224.0.0.1": "multicast",
      "255.255.255.255": "broadcast",
      "198.18.0.1": "reserved",
      "240.0.0.1": "reserved"
    }
    for (const [address, range] of Object.entries(cases)) expect(refusedRange(address), address).toBe(range)
  })

  it("refuses metadata services, even when private addresses are allowed", () => {
    for (const address of ["169.254.169.254", "169.254.170.2", "100.100.100.200", "192.0.0.192", "fd00:ec2::254", "fd00:ec2:0:0:0:0:0:254", "::ffff:169.254.169.254"]) {
      expect(addressVerdict(address, true), address).toEqual({ allowed: false, range: "metadata" })
    }
  })

  it("refuses loopback, unique-local, link-local and special IPv6, and IPv4 written in IPv6", () => {
    const cases: Record<string, string> = {
      "::1": "loopback",
      "::": "unspecified",
      "fe80::1": "linkLocal",
      "fc00::1": "uniqueLocal",
      "fd12:3456::1": "uniqueLocal",
      "ff02::1": "multicast",
      "::ffff:127.0.0.1": "loopback",
      "::ffff:7f00:1": "loopback",
      "::ffff:10.1.2.3": "private",
      "::ffff:a9fe:a9fe": "metadata",
      "::127.0.0.1": "loopback",
      "::10.0.0.1": "private",
      "64:ff9b::7f00:1": "rfc6052",
      "2002:7f00:1::": "6to4",
      "2001:db8::1": "reserved",
      "fec0::1": "deprecatedSiteLocal"
    }
    for (const [address, range] of Object.entries(cases)) expect(refusedRange(address), address).toBe(range)
  })

  it("allows private addresses only when told to", () => {
    expect(addressVerdict("127.0.0.1", true)).toEqual({ allowed: true })
    expect(addressVerdict("::1", true)).toEqual({ allowed: true })
    expect(addressVerdict("not an address", true)).toEqual({ allowed: false, range: "invalid" })
  })
})

const reasonOf = (result: URL | OutboundRefused): string => (result instanceof OutboundRefused ? result.reason : "ok")

describe("outbound URLs", () => {
  it("accepts https URLs of public hosts and names", () => {
    expect(reasonOf(checkUrl("https://hooks.slack.com/services/T000/B000/XXXX", strictPolicy))).toBe("ok")
    expect(reasonOf(checkUrl("https://8.8.8.8:8443/hook", strictPolicy))).toBe("ok")
    expect(reasonOf(checkUrl("https://[2606:4700:4700::1111]/hook", strictPolicy))).toBe("ok")
  })

  it("refuses http unless allowed, and every other scheme", () => {
    expect(reasonOf(checkUrl("http://example.com/hook", strictPolicy))).toBe("scheme")
    expect(reasonOf(checkUrl("http://example.com/hook", { allowHttp: true, allowPrivate: false }))).toBe("ok")
    for (const url of ["ftp://example.com/", "file:///etc/passwd", "gopher://example.com/", "javascript:alert(1)", "data:text/plain,x"]) {
      expect(reasonOf(checkUrl(url, allowPrivate)), url).toBe("scheme")
    }
  })

  it("refuses credentials, relative and over-long URLs", () => {
    expect(reasonOf(checkUrl("https://user:pass@example.com/", strictPolicy))).toBe("credentials")
    expect(reasonOf(checkUrl("https://user@example.com/", strictPolicy))).toBe("credentials")
    expect(reasonOf(checkUrl("/relative", strictPolicy))).toBe("invalid_url")
    expect(reasonOf(checkUrl(`https://example.com/${"a".repeat(2100)}`, strictPolicy))).toBe("too_long")
  })

  it("sees through the spellings of loopback that URL parsing normalises", () => {
    for (const url of [
      "https://127.0.0.1/", "https://2130706433/", "https://0x7f.1/", "https://017700000001/", "https://127.1/",
      "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://[0:0:0:0:0:ffff:7f00:1]/", "https://0/", "https://169.254.169.254/latest/meta-data/"
    ]) {
      expect(reasonOf(checkUrl(url, strictPolicy)), url).toBe("private_address")
    }
  })

  it("refuses local and metadata names, and metadata names even when private addresses are allowed", () => {
    for (const url of ["https://localhost/", "https://LOCALHOST./", "https://api.localhost/", "https://metadata.google.internal/computeMetadata/v1/"]) {
      expect(reasonOf(checkUrl(url, strictPolicy)), url).toBe("local_name")
    }
    expect(reasonOf(checkUrl("http://localhost:8080/", allowPrivate))).toBe("ok")
    expect(reasonOf(checkUrl("http://metadata.google.internal/", allowPrivate))).toBe("local_name")
    expect(reasonOf(checkUrl("http://169.254.169.254/", allowPrivate))).toBe("private_address")
  })

  it("never puts the URL's secrets in its message", () => {
    const refused = checkUrl("https://user:hunter2@example.com/?token=s3cret", strictPolicy)
    expect(refused).toBeInstanceOf(OutboundRefused)
    expect((refused as OutboundRefused).message).not.toMatch(/hunter2|s3cret/)
  })

  it("checks redirect targets like any URL, relative ones against the URL that answered", () => {
    const from = new URL("https://example.com/hooks/1")
    expect((redirectTarget(from, "/hooks/2", strictPolicy) as URL).href).toBe("https://example.com/hooks/2")
    expect(reasonOf(redirectTarget(from, "http://example.com/", strictPolicy))).toBe("scheme")
    expect(reasonOf(redirectTarget(from, "https://127.0.0.1/admin", strictPolicy))).toBe("private_address")
    expect(reasonOf(redirectTarget(from, "https://localhost/", strictPolicy))).toBe("local_name")
  })
})

const fixedResolver = (answers: Record<string, ReadonlyArray<string>>): Resolver => async (host) => {
  const addresses = answers[host]
  if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" })
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
}

describe("resolving outbound URLs", () => {
  const resolver = fixedResolver({
    "public.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "rebind.example": ["127.0.0.1"],
    "mixed.example": ["93.184.215.14", "10.0.0.7"],
    "mapped.example": ["::ffff:192.168.0.1"],
    "empty.example": []
  })

  it("returns the checked addresses of a public host", async () => {
    const target = await resolveTarget("https://public.example/hook", strictPolicy, resolver)
    expect(target).not.toBeInstanceOf(OutboundRefused)
    if (!(target instanceof OutboundRefused)) expect(target.addresses.map((entry) => entry.address)).toEqual(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"])
  })

  it("refuses a name that resolves to a private address, or to any private one among public ones", async () => {
    expect(reasonOf(await resolveTarget("https://rebind.example/", strictPolicy, resolver) as never)).toBe("private_address")
    expect(reasonOf(await resolveTarget("https://mixed.example/", strictPolicy, resolver) as never)).toBe("private_address")
    expect(reasonOf(await resolveTarget("https://mapped.example/", strictPolicy, resolver) as never)).toBe("private_address")
  })

  it("refuses a name without an address", async () => {
    expect(reasonOf(await resolveTarget("https://missing.example/", strictPolicy, resolver) as never)).toBe("unresolvable")
    expect(reasonOf(await resolveTarget("https://empty.example/", strictPolicy, resolver) as never)).toBe("unresolvable")
  })

  it("allows the private name when told to", async () => {
    expect(await resolveTarget("https://rebind.example/", allowPrivate, resolver)).not.toBeInstanceOf(OutboundRefused)
  })
})

describe("the guarded lookup on real connections", () => {
  let server: Server
  let port: number
  beforeAll(async () => {
    server = createServer((_, response) => response.end("reached"))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** GETs the local server through `host`, resolved by the guarded lookup; the body or the error's code. */
  const request = (host: string, lookup: ReturnType<typeof guardedLookup>) =>
    new Promise<string>((resolve) => {
      const outgoing = get({ host, port, path: "/", lookup, agent: false }, (response) => {
        let body = ""
        response.on("data", (chunk) => (body += chunk))
        response.on("end", () => resolve(body))
      })
      outgoing.on("error", (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`))
    })

  it("refuses a name that resolves to loopback, at connection time", async () => {
    const lookup = guardedLookup(strictPolicy, fixedResolver({ "hook.example": ["127.0.0.1"] }))
    expect(await request("hook.example", lookup)).toBe("error EOUTBOUNDREFUSED")
  })

  it("refuses loopback by the system resolver (localhost)", async () => {
    expect(await request("localhost", guardedLookup(strictPolicy))).toBe("error EOUTBOUNDREFUSED")
  })

  it("connects when private addresses are allowed", async () => {
    expect(await request("hook.example", guardedLookup(allowPrivate, fixedResolver({ "hook.example": ["127.0.0.1"] })))).toBe("reached")
  })

  it("checks every connection: a name that turns private after being checked is refused (DNS rebinding)", async () => {
    let calls = 0
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: "93.184.215.14", family: 4 }] : [{ address: "127.0.0.1", family: 4 }])
    expect(await resolveTarget("https://rebind.example/", strictPolicy, rebinding)).not.toBeInstanceOf(OutboundRefused)
    expect(await request("rebind.example", guardedLookup(strictPolicy, rebinding))).toBe("error EOUTBOUNDREFUSED")
    expect(calls).toBe(2)
  })

  it("hands back all checked addresses, or one of the family asked for", async () => {
    const lookup = guardedLookup(strictPolicy, fixedResolver({ "dual.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"] }))
    const all = await new Promise((resolve) => lookup("dual.example", { all: true }, (_, addresses) => resolve(addresses)))
    expect(all).toEqual([{ address: "93.184.215.14", family: 4 }, { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 }])
    const six = await new Promise((resolve) => lookup("dual.example", { family: 6 }, (_, address, family) => resolve([address, family])))
    expect(six).toEqual(["2606:2800:21f:cb07:6820:80da:af6b:8b2c", 6])
  })
})
