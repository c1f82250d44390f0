/**
 * One request in every supported log format: the same GPTBot fetch of
 * https://www.example.com/pricing?session=abc&utm_source=chatgpt.com, as each source logs it.
 * Addresses are from the documentation ranges (RFC 5737, RFC 3849).
 */
export const GPTBOT_UA = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
export const BROWSER_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

/** 2026-10-10T13:55:36Z */
export const TIME = Date.UTC(2026, 9, 10, 13, 55, 36)

export const combined =
  `192.0.2.10 - - [10/Oct/2026:15:55:36 +0200] "GET /pricing?session=abc&utm_source=chatgpt.com HTTP/1.1" 200 5120 "https://chatgpt.com/" "${GPTBOT_UA}"`

export const common = `192.0.2.10 - frank [10/Oct/2026:13:55:36 +0000] "GET /pricing?session=abc&utm_source=chatgpt.com HTTP/1.1" 200 5120`

const encodedUa = GPTBOT_UA.replace(/ /g, "%20")
export const cloudfront = [
  "#Version: 1.0",
  "#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end",
  [
    "2026-10-10", "13:55:36", "IAD89-C1", "5120", "192.0.2.10", "GET", "d111111abcdef8.cloudfront.net", "/pricing", "200",
    "https://chatgpt.com/", encodedUa, "session=abc&utm_source=chatgpt.com", "-", "Miss", "abc==", "www.example.com", "https", "180", "0.105",
    "-", "TLSv1.3", "TLS_AES_128_GCM_SHA256", "Miss", "HTTP/2.0", "-", "-", "443", "0.102", "Miss", "text/html; charset=utf-8", "5120", "-", "-"
  ].join("\t")
]

export const alb =
  `https 2026-10-10T13:55:36.000412Z app/my-alb/50dc6c495c0c9188 192.0.2.10:46532 10.0.0.1:80 0.001 0.002 0.000 200 200 34 5120 "GET https://www.example.com:443/pricing?session=abc&utm_source=chatgpt.com HTTP/1.1" "${GPTBOT_UA}" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 0 2026-10-10T13:55:36.100000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234`

export const cloudflareLogpush = JSON.stringify({
  ClientIP: "192.0.2.10",
  ClientRequestHost: "www.example.com",
  ClientRequestMethod: "GET",
  ClientRequestURI: "/pricing?session=abc&utm_source=chatgpt.com",
  ClientRequestReferer: "https://chatgpt.com/",
  ClientRequestUserAgent: GPTBOT_UA,
  EdgeResponseStatus: 200,
  EdgeResponseBytes: 5120,
  EdgeResponseContentType: "text/html",
  EdgeStartTimestamp: "2026-10-10T13:55:36Z"
})

export const vercel = JSON.stringify({
  id: "1573817187330377061717300000",
  deploymentId: "dpl_233NRGRjVZX1caZrXWtz5g1TAksD",
  source: "static",
  host: "my-site.vercel.app",
  timestamp: TIME,
  projectId: "prj_1",
  level: "info",
  proxy: {
    timestamp: TIME,
    method: "GET",
    scheme: "https",
    host: "www.example.com",
    path: "/pricing?session=abc&utm_source=chatgpt.com",
    userAgent: [GPTBOT_UA],
    referer: "https://chatgpt.com/",
    statusCode: 200,
    clientIp: "192.0.2.10",
    region: "iad1",
    responseByteSize: 5120
  }
})

export const ndjsonFieldMap = {
  time: "ts",
  path: "request.url",
  status: "response.status",
  method: "request.method",
  host: "request.host",
  bytes: "response.bytes",
  userAgent: "request.headers.user-agent",
  ip: "client",
  referer: "request.headers.referer",
  contentType: "response.type"
}

export const ndjson = JSON.stringify({
  ts: TIME / 1000,
  client: "192.0.2.10",
  request: {
    method: "GET",
    host: "www.example.com",
    url: "/pricing?session=abc&utm_source=chatgpt.com",
    headers: { "user-agent": GPTBOT_UA, referer: "https://chatgpt.com/" }
  },
  response: { status: 200, bytes: 5120, type: "text/html" }
})
