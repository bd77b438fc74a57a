import { describe, expect, it } from "vitest";
import { computeSignature, signatureHeaders, verifySignature } from "@/lib/webhooks/signature";

/**
 * Fixed vectors computed outside this code base with
 *   printf '%s' '<t>.<body>' | openssl dgst -sha256 -hmac "$SECRET" -hex
 * so the test pins the platform's scheme, not whatever the implementation happens to do.
 */
const SECRET = "svcwhsec_" + "5e".repeat(24);
const T = "1767225600"; // 2026-01-01T00:00:00Z
const BODY = Buffer.from(
  '{"id":"evt_0a1b2c3d","event":"webhook.verify","created_at":"2026-01-01T00:00:00+00:00","store_id":0,"data":{}}',
  "utf8",
);
const V1 = "1758dd927c8dfc5b74dbc5ef84e5cb4475ad7edc77b5edc595bb804774069ff2";
// A body starting with a UTF-8 BOM and holding an invalid UTF-8 byte: text decoding would change both.
const RAW_BODY = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"', "utf8"), Buffer.from([0xff]), Buffer.from('"}', "utf8")]);
const RAW_V1 = "44e945fc95a17d6c8b232bfe161978057eb1ac6fe00b3538636344b4034fe404";
const AT_T = new Date(Number(T) * 1000);

function check(overrides: Partial<Parameters<typeof verifySignature>[0]> = {}) {
  return verifySignature({ rawBody: BODY, header: `t=${T},v1=${V1}`, timestampHeader: T, secret: SECRET, now: AT_T, ...overrides });
}

describe("webhook signature", () => {
  it("computes the documented HMAC of '<t>.<raw body>'", () => {
    expect(computeSignature(SECRET, T, BODY)).toBe(V1);
    expect(computeSignature(SECRET, T, RAW_BODY)).toBe(RAW_V1);
  });

  it("accepts a valid signature", () => {
    expect(check()).toEqual({ ok: true, timestamp: Number(T) });
  });

  it("verifies the raw bytes, BOM and invalid UTF-8 included", () => {
    expect(check({ rawBody: RAW_BODY, header: `t=${T},v1=${RAW_V1}` }).ok).toBe(true);
    // The same body after a text round trip (BOM dropped, 0xff replaced) no longer matches.
    const decoded = Buffer.from(new TextDecoder().decode(RAW_BODY), "utf8");
    expect(check({ rawBody: decoded, header: `t=${T},v1=${RAW_V1}` })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("refuses the wrong secret", () => {
    expect(check({ secret: "svcwhsec_" + "00".repeat(24) })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("refuses an altered body", () => {
    const altered = Buffer.from(BODY.toString("utf8").replace('"store_id":0', '"store_id":1'), "utf8");
    expect(check({ rawBody: altered })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("refuses an altered t, whether or not the timestamp header follows it", () => {
    const other = String(Number(T) + 1);
    expect(check({ header: `t=${other},v1=${V1}`, timestampHeader: other })).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(check({ header: `t=${other},v1=${V1}` })).toEqual({ ok: false, reason: "timestamp_mismatch" });
    expect(check({ timestampHeader: other })).toEqual({ ok: false, reason: "timestamp_mismatch" });
  });

  it("accepts up to 5 minutes of skew either way and refuses beyond", () => {
    const at = (offsetSeconds: number) => new Date((Number(T) + offsetSeconds) * 1000);
    expect(check({ now: at(300) }).ok).toBe(true);
    expect(check({ now: at(-300) }).ok).toBe(true);
    expect(check({ now: at(301) })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    expect(check({ now: at(-301) })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    // A correctly signed stale timestamp is refused before the HMAC is even compared.
    expect(check({ now: at(3600) })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
  });

  it("refuses missing and malformed headers", () => {
    expect(check({ header: null })).toEqual({ ok: false, reason: "missing_signature" });
    expect(check({ header: "" })).toEqual({ ok: false, reason: "missing_signature" });
    expect(check({ timestampHeader: undefined })).toEqual({ ok: false, reason: "missing_timestamp" });
    expect(check({ header: V1 })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `v1=${V1}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T},t=${T},v1=${V1}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T},v1=${V1.toUpperCase()}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T},v1=${V1.slice(0, 63)}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=12.5,v1=${V1}`, timestampHeader: "12.5" })).toEqual({ ok: false, reason: "malformed_timestamp" });
    expect(check({ header: `t=-1,v1=${V1}`, timestampHeader: "-1" })).toEqual({ ok: false, reason: "malformed_timestamp" });
  });

  it("ignores unknown keys and accepts any matching v1 among several", () => {
    expect(check({ header: `t=${T},v0=abc,v1=${"0".repeat(64)},v1=${V1}` }).ok).toBe(true);
  });

  it("produces headers its own check accepts", () => {
    const headers = signatureHeaders(SECRET, BODY, Number(T));
    expect(headers).toEqual({ "x-svc-timestamp": T, "x-svc-signature": `t=${T},v1=${V1}` });
    // A fractional time is signed as its whole second, as the platform writes it.
    expect(signatureHeaders(SECRET, BODY, Number(T) + 0.9)).toEqual(headers);
  });

  it("takes the HMAC only from v1: a valid one under another scheme's key is not a signature", () => {
    expect(check({ header: `t=${T},v0=${V1}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T},V1=${V1}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T},v1x=${V1}` })).toEqual({ ok: false, reason: "malformed_signature" });
  });

  it("takes a v1 of exactly 64 lowercase hex characters, nothing around them", () => {
    for (const candidate of [`x${V1}`, `${V1}x`, `${V1}0`, `${V1} ${V1}`]) {
      expect(check({ header: `t=${T},v1=${candidate}` })).toEqual({ ok: false, reason: "malformed_signature" });
    }
  });

  it("refuses an empty or key-less part of the header, and reads spaces around parts and values", () => {
    expect(check({ header: `t=${T},,v1=${V1}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T},=${V1},v1=${V1}` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T},v1` })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: ` t = ${T} , v1 = ${V1} ` }).ok).toBe(true);
  });

  it("calls a header without any v1 malformed before it looks at the timestamp", () => {
    expect(check({ header: "t=12.5", timestampHeader: "12.5" })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(check({ header: `t=${T}`, now: new Date((Number(T) + 3600) * 1000) })).toEqual({ ok: false, reason: "malformed_signature" });
  });

  it("accepts a matching v1 wherever it stands among the others, malformed ones included", () => {
    expect(check({ header: `t=${T},v1=${V1},v1=${"0".repeat(64)}` }).ok).toBe(true);
    expect(check({ header: `t=${T},v1=garbage,v1=${V1}` }).ok).toBe(true);
    expect(check({ header: `t=${T},v1=${V1},v1=garbage` }).ok).toBe(true);
    expect(check({ header: `t=${T},v1=garbage,v1=${"0".repeat(64)}` })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("takes timestamps of 1 to 12 decimal digits only, in both headers", () => {
    for (const t of ["", "x1767225600", "1767225600x", "1".repeat(13), " 1767225600"]) {
      expect(check({ header: `t=${t},v1=${V1}`, timestampHeader: t || "1" })).toEqual({ ok: false, reason: "malformed_timestamp" });
    }
    expect(check({ timestampHeader: `${T}x` })).toEqual({ ok: false, reason: "malformed_timestamp" });
    expect(check({ timestampHeader: "1".repeat(13) })).toEqual({ ok: false, reason: "malformed_timestamp" });
  });

  it("applies a tolerance given by the caller instead of the platform's 5 minutes", () => {
    const at = (offsetSeconds: number) => new Date((Number(T) + offsetSeconds) * 1000);
    expect(check({ now: at(10), toleranceSeconds: 10 }).ok).toBe(true);
    expect(check({ now: at(11), toleranceSeconds: 10 })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
    // Sub-second skew counts: 300.5 s is past the 300.
    expect(check({ now: new Date(Number(T) * 1000 + 300_500) })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" });
  });
});
