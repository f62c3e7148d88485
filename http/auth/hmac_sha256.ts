/**
 * HMAC-SHA256 (RFC 2104, FIPS 180-4), synchronous, for verifying HS256 token signatures without
 * WebCrypto's asynchronous round trip (on Deno, `crypto.subtle.verify` costs about 100 µs at p75
 * on its blocking pool, against a few µs here). The key's inner and outer states are computed once;
 * a verification hashes the message and one more block, and compares in constant time. SHA-256 is
 * additions, rotations and XORs on 32-bit words, with no table indexed by secret data. Internal to
 * the JWT authenticator.
 *
 * @module
 */

const K = new Int32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);

const IV = new Int32Array([
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
]);

/** Compresses one 64-byte block of `block` at `offset` into the state `h`. */
function compress(h: Int32Array, w: Int32Array, block: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (k + s1 + ch + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + maj) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + k) | 0;
}

/** The buffers one hash reuses: its state, its message schedule, its last block(s). */
interface Scratch {
  readonly h: Int32Array;
  readonly w: Int32Array;
  readonly tail: Uint8Array;
}

function scratch(): Scratch {
  return { h: new Int32Array(8), w: new Int32Array(64), tail: new Uint8Array(128) };
}

/**
 * Hashes the first `length` bytes of `message` on from the state `start` (which has absorbed
 * `absorbed` bytes already, a multiple of 64) into `out` (32 bytes), with the buffers of `s`.
 * Nothing is allocated: the last block(s) are copied into the scratch tail.
 */
function finish(
  start: Int32Array,
  absorbed: number,
  message: Uint8Array,
  length: number,
  out: Uint8Array,
  s: Scratch,
): void {
  const { h, w, tail } = s;
  h.set(start);
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(h, w, message, offset);
  const rest = length - whole;
  const end = rest < 56 ? 64 : 128;
  tail.fill(0);
  for (let i = 0; i < rest; i++) tail[i] = message[whole + i]!;
  tail[rest] = 0x80;
  const bits = (absorbed + length) * 8;
  // The length in bits, big-endian, in the last 8 bytes (messages here are far below 2^32 bits).
  tail[end - 5] = Math.floor(bits / 2 ** 32) & 0xff;
  tail[end - 4] = (bits >>> 24) & 0xff;
  tail[end - 3] = (bits >>> 16) & 0xff;
  tail[end - 2] = (bits >>> 8) & 0xff;
  tail[end - 1] = bits & 0xff;
  for (let offset = 0; offset < end; offset += 64) compress(h, w, tail, offset);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i]! >>> 24;
    out[i * 4 + 1] = (h[i]! >>> 16) & 0xff;
    out[i * 4 + 2] = (h[i]! >>> 8) & 0xff;
    out[i * 4 + 3] = h[i]! & 0xff;
  }
}

/** HMAC-SHA256 with one key: its MAC of a message, and a constant-time verification. */
export interface HmacSha256 {
  /** The 32-byte MAC of `message`. */
  mac(message: Uint8Array): Uint8Array;
  /** Whether `signature` is the MAC of `message`, compared in constant time. */
  verify(message: Uint8Array, signature: Uint8Array): boolean;
  /**
   * Whether the first 32 bytes of `signature` are the MAC of the first `length` bytes of
   * `message`, compared in constant time; allocates nothing (for buffers reused across calls).
   */
  verifyPrefix(message: Uint8Array, length: number, signature: Uint8Array): boolean;
}

/** HMAC-SHA256 keyed with `key` (a key longer than a block is hashed first, as RFC 2104 says). */
export function hmacSha256(key: Uint8Array): HmacSha256 {
  const s = scratch();
  const block = new Uint8Array(64);
  if (key.length > 64) {
    const hashed = new Uint8Array(32);
    finish(IV, 0, key, key.length, hashed, s);
    block.set(hashed);
  } else {
    block.set(key);
  }
  const inner = IV.slice();
  const outer = IV.slice();
  const padded = new Uint8Array(64);
  for (let i = 0; i < 64; i++) padded[i] = block[i]! ^ 0x36;
  compress(inner, s.w, padded, 0);
  for (let i = 0; i < 64; i++) padded[i] = block[i]! ^ 0x5c;
  compress(outer, s.w, padded, 0);
  block.fill(0);
  padded.fill(0);
  const innerHash = new Uint8Array(32);
  const expected = new Uint8Array(32);
  const macInto = (message: Uint8Array, length: number, out: Uint8Array): Uint8Array => {
    finish(inner, 64, message, length, innerHash, s);
    finish(outer, 64, innerHash, 32, out, s);
    return out;
  };
  const verifyPrefix = (message: Uint8Array, length: number, signature: Uint8Array): boolean => {
    if (signature.length < 32) return false;
    macInto(message, length, expected);
    let difference = 0;
    for (let i = 0; i < 32; i++) difference |= expected[i]! ^ signature[i]!;
    return difference === 0;
  };
  return {
    mac: (message) => macInto(message, message.length, new Uint8Array(32)),
    verify(message: Uint8Array, signature: Uint8Array): boolean {
      return signature.length === 32 && verifyPrefix(message, message.length, signature);
    },
    verifyPrefix,
  };
}
