import assert from "node:assert/strict";
import { hmacSha256 } from "./hmac_sha256.ts";

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text: string) =>
  new Uint8Array(text.match(/../g)!.map((pair) => parseInt(pair, 16)));
const ascii = (text: string) => new TextEncoder().encode(text);

Deno.test("HMAC-SHA256 gives RFC 4231's test vectors", () => {
  const cases: [Uint8Array, Uint8Array, string][] = [
    [
      new Uint8Array(20).fill(0x0b),
      ascii("Hi There"),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    ],
    [
      ascii("Jefe"),
      ascii("what do ya want for nothing?"),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    ],
    [
      new Uint8Array(20).fill(0xaa),
      new Uint8Array(50).fill(0xdd),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
    ],
    [
      fromHex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
      new Uint8Array(50).fill(0xcd),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
    ],
    [
      new Uint8Array(131).fill(0xaa),
      ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    ],
    [
      new Uint8Array(131).fill(0xaa),
      ascii(
        "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
      ),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
    ],
  ];
  for (const [key, message, expected] of cases) {
    assert.equal(hex(hmacSha256(key).mac(message)), expected);
  }
});

Deno.test("HMAC-SHA256 agrees with WebCrypto on random keys and messages of every length around a block", async () => {
  for (let round = 0; round < 400; round++) {
    const key = crypto.getRandomValues(new Uint8Array([1, 16, 32, 63, 64, 65, 100][round % 7]!));
    const hmac = hmacSha256(key);
    const imported = await crypto.subtle.importKey(
      "raw",
      key,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const length = round < 200 ? round : Math.floor(Math.random() * 2000);
    const message = crypto.getRandomValues(new Uint8Array(length));
    const expected = new Uint8Array(await crypto.subtle.sign("HMAC", imported, message));
    assert.equal(hex(hmac.mac(message)), hex(expected), `key ${key.length} B, message ${length} B`);
    // The same instance twice: no state carried from one message to the next.
    assert.equal(hex(hmac.mac(message)), hex(expected));
    assert.ok(hmac.verify(message, expected));
  }
});

Deno.test("verify refuses a signature with any bit changed, or of another length", () => {
  const hmac = hmacSha256(ascii("a secret of this test"));
  const message = ascii("header.payload");
  const signature = hmac.mac(message);
  assert.ok(hmac.verify(message, signature));
  for (let bit = 0; bit < 256; bit++) {
    const changed = signature.slice();
    changed[bit >> 3]! ^= 1 << (bit & 7);
    assert.equal(hmac.verify(message, changed), false, `bit ${bit}`);
  }
  assert.equal(hmac.verify(message, signature.subarray(0, 31)), false);
  assert.equal(hmac.verify(ascii("header.payloaD"), signature), false);
});
