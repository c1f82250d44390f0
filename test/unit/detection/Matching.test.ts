import { describe, expect, it } from "@effect/vitest"
import {
  coversDomain,
  domainSpellings,
  findDomainOccurrences,
  findNameOccurrences,
  normalizeDomain
} from "../../../src/Detection/Matching.js"

const starts = (text: string, name: string) => findNameOccurrences(text, name).map((o) => o.start)
const matched = (text: string, name: string) => findNameOccurrences(text, name).map((o) => text.slice(o.start, o.end))
const domainMatches = (text: string, domain: string) =>
  findDomainOccurrences(text, domain).map((o) => text.slice(o.start, o.end))

describe("findNameOccurrences", () => {
  it.each<[string, string, Array<string>]>([
    ["Acme", "Acme is good", ["Acme"]],
    ["Acme", "I like acme's plan", ["acme"]],
    ["Acme", "I like acme’s plan", ["acme"]],
    ["Acme", "Try ACME.", ["ACME"]],
    ["Acme", "(Acme), [Acme], \"Acme\", Acme-based, acme_corp, #acme", ["Acme", "Acme", "Acme", "Acme", "acme", "acme"]],
    ["Acme", "Acmeville and SuperAcme and Acme2 and 2Acme and Acmé", []],
    ["Acme", "acme.com and notacme.com", ["acme"]],
    ["HubSpot", "Hubspot and HUBSPOT and hubSpot", ["Hubspot", "HUBSPOT", "hubSpot"]],
    ["Société Générale", "la société générale et SOCIÉTÉ GÉNÉRALE", ["société générale", "SOCIÉTÉ GÉNÉRALE"]],
    ["Société Générale", "Société\u00a0Générale and Société\n  Générale", ["Société\u00a0Générale", "Société\n  Générale"]],
    ["Société Générale", "SociétéGénérale", []],
    // Names are compared in NFC (the caller passes NFC text).
    ["Socie\u0301te\u0301", "Société X", ["Société"]],
    ["C++", "I code in C++ and c++, not C++17 or C+", ["C++", "c++"]],
    [".NET", "Use .NET, not ASP.NET", [".NET"]],
    ["AT&T", "AT&T and at&t, not AT&Tx", ["AT&T", "at&t"]],
    ["Yahoo!", "Yahoo! is old", ["Yahoo!"]],
    ["McDonald's", "McDonald’s and MCDONALD'S and McDonaldʼs", ["McDonald’s", "MCDONALD'S", "McDonaldʼs"]],
    ["Coca-Cola", "coca-cola and Coca Cola", ["coca-cola"]],
    ["Acme (US)", "Acme (US) and Acme US", ["Acme (US)"]],
    ["a.b", "a.b and axb", ["a.b"]],
    ["$PAY", "$PAY and $pay", ["$PAY", "$pay"]],
    ["Müller", "MÜLLER und müller, nicht Müllerei", ["MÜLLER", "müller"]],
    ["Ωmega", "ΩMEGA and ωmega", ["ΩMEGA", "ωmega"]],
    ["Яндекс", "Сервис ЯНДЕКС и яндекс.", ["ЯНДЕКС", "яндекс"]],
    // A name repeated with overlap: the rejected first candidate does not hide the second.
    ["ab ab", "xab ab ab", ["ab ab"]],
    // CJK: no boundaries inside CJK text, and CJK neighbours do not glue to Latin names.
    ["阿里云", "我推荐阿里云和腾讯云。", ["阿里云"]],
    ["Acme", "我推荐Acme的产品", ["Acme"]],
    ["Acme", "Acmeの製品とソニー", ["Acme"]],
    ["ソニー", "ソニーの製品", ["ソニー"]],
    ["삼성", "삼성은 좋다", ["삼성"]],
    ["Acme", "Acme는 좋다", ["Acme"]],
    ["阿里云", "x阿里云y", ["阿里云"]],
    // Blank names find nothing.
    ["", "anything", []],
    ["   ", "a   b", []]
  ])("%j in %j", (name, text, expected) => {
    expect(matched(text, name)).toEqual(expected)
  })

  it("reports offsets", () => {
    expect(starts("Acme, then acme and ACME", "acme")).toEqual([0, 11, 20])
  })

  it("handles astral characters around a match", () => {
    expect(matched("𝐀Acme 😀Acme Acme𝟏", "Acme")).toEqual(["Acme"])
  })

  it("escapes every regex metacharacter", () => {
    for (const name of ["a.b*c", "(x)", "[y]", "{z}", "p|q", "^s$", "a\\b", "a/b", "x?", "+1"]) {
      expect(matched(`say ${name} now`, name)).toEqual([name])
    }
  })
})

describe("findDomainOccurrences", () => {
  it.each<[string, string, Array<string>]>([
    ["acme.com", "Visit acme.com.", ["acme.com"]],
    ["acme.com", "Visit ACME.COM today", ["ACME.COM"]],
    ["acme.com", "See www.acme.com/pricing", ["acme.com"]],
    ["acme.com", "See https://blog.acme.com/post", ["acme.com"]],
    ["acme.com", "Mail sales@acme.com,", ["acme.com"]],
    ["acme.com", "(acme.com) and \"acme.com\"", ["acme.com", "acme.com"]],
    ["acme.com", "notacme.com, acme.com.evil.io, acme.com-shop.io, acme.community, acme.comx, my-acme.com", []],
    ["acme.com", "acme.com.", ["acme.com"]],
    ["acme.com", "acme.com.au", []],
    ["acme.com", "acme.com:8080/x", ["acme.com"]],
    ["acme.com", "acmeXcom", []],
    ["acme.com", "访问acme.com了解", ["acme.com"]],
    ["xn--bcher-kva.de", "Bei bücher.de und xn--bcher-kva.de", ["bücher.de", "xn--bcher-kva.de"]]
  ])("%s in %j", (domain, text, expected) => {
    expect(domainMatches(text, domain)).toEqual(expected)
  })
})

describe("normalizeDomain", () => {
  it.each<[string, string | undefined]>([
    ["acme.com", "acme.com"],
    ["  ACME.com  ", "acme.com"],
    ["www.acme.com", "acme.com"],
    ["acme.com.", "acme.com"],
    ["https://www.acme.com/pricing?x=1", "acme.com"],
    ["acme.com/pricing", "acme.com"],
    ["acme.com:8080", "acme.com"],
    ["Bücher.de", "xn--bcher-kva.de"],
    ["blog.acme.com", "blog.acme.com"],
    ["localhost", "localhost"],
    ["", undefined],
    ["   ", undefined],
    ["a b.com", undefined]
  ])("%j -> %j", (raw, expected) => {
    expect(normalizeDomain(raw)).toBe(expected)
  })

  it("spells IDNs both ways", () => {
    expect(domainSpellings("xn--bcher-kva.de")).toEqual(["xn--bcher-kva.de", "bücher.de"])
    expect(domainSpellings("acme.com")).toEqual(["acme.com"])
  })
})

describe("coversDomain", () => {
  it.each<[string, string, boolean]>([
    ["acme.com", "acme.com", true],
    ["acme.com", "blog.acme.com", true],
    ["acme.com", "a.b.acme.com", true],
    ["acme.com", "notacme.com", false],
    ["acme.com", "acme.com.evil.io", false],
    ["blog.acme.com", "acme.com", false],
    ["acme.com", "com", false]
  ])("%s covers %s: %s", (brand, cited, expected) => {
    expect(coversDomain(brand, cited)).toBe(expected)
  })
})
