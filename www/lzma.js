// The player's wasm is inlined packed by LZMA (scripts/build-web.sh: 15% smaller than gzip,
// which is all the browsers' DecompressionStream decodes): this unpacks it. Raw LZMA1 with
// lc=3 lp=0 pb=0 (one position state); `src` holds the stream, `size` the bytes it unpacks
// to (the stream's end marker is not read). After the reference decoder of the LZMA SDK
// (LzmaSpec.cpp): a range decoder, adaptive bit probabilities in one array.
"use strict";
function unlzma(src, size) {
  const out = new Uint8Array(size), p = new Uint16Array(7511).fill(1024);
  // Where each group of probabilities starts in `p`.
  const MATCH = 0, REP = 192, G0 = 204, G1 = 216, G2 = 228, LONG = 240, SLOT = 432, SPEC = 688,
    ALIGN = 803, LEN = 819, REPLEN = 1093, LIT = 1367;
  let i = 5, range = -1 >>> 0, code = ((src[1] << 24) | (src[2] << 16) | (src[3] << 8) | src[4]) >>> 0;
  const bit = (k) => {
    const bound = (range >>> 11) * p[k];
    let b;
    if (code < bound) { range = bound; p[k] += (2048 - p[k]) >> 5; b = 0; }
    else { range -= bound; code -= bound; p[k] -= p[k] >> 5; b = 1; }
    if (range < 16777216) { range = (range << 8) >>> 0; code = ((code << 8) | src[i++]) >>> 0; }
    return b;
  };
  const tree = (k, n) => { let m = 1; for (let j = 0; j < n; j++) m = (m << 1) | bit(k + m); return m - (1 << n); };
  const reverse = (k, n) => { let m = 1, s = 0; for (let j = 0; j < n; j++) { const b = bit(k + m); m = (m << 1) | b; s |= b << j; } return s; };
  // A length coder: choice, choice 2, low (8 x 3 bits), mid, high (8 bits); pb = 0: one state.
  const len = (k) => !bit(k) ? tree(k + 2, 3) : !bit(k + 1) ? 8 + tree(k + 2 + 8, 3) : 16 + tree(k + 2 + 16, 8);
  let pos = 0, state = 0, r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  while (pos < size) {
    if (!bit(MATCH + (state << 4))) {
      const k = LIT + 0x300 * (pos ? out[pos - 1] >> 5 : 0);
      let s = 1;
      if (state >= 7) {
        let mb = out[pos - r0 - 1];
        do { const m = (mb >> 7) & 1; mb <<= 1; const b = bit(k + ((1 + m) << 8) + s); s = (s << 1) | b; if (m !== b) break; } while (s < 256);
      }
      while (s < 256) s = (s << 1) | bit(k + s);
      out[pos++] = s;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let n;
    if (!bit(REP + state)) {
      r3 = r2; r2 = r1; r1 = r0;
      n = len(LEN);
      state = state < 7 ? 7 : 10;
      const slot = tree(SLOT + (n < 3 ? n : 3) * 64, 6);
      if (slot < 4) r0 = slot;
      else {
        const direct = (slot >> 1) - 1;
        r0 = (2 | (slot & 1)) << direct;
        if (slot < 14) r0 += reverse(SPEC + r0 - slot, direct);
        else {
          for (let j = direct - 4; j > 0; j--) {
            range >>>= 1;
            const b = code >= range ? 1 : 0;
            if (b) code -= range;
            r0 = ((r0 >>> 0) + b * 2 ** (j + 3)) >>> 0;
            if (range < 16777216) { range = (range << 8) >>> 0; code = ((code << 8) | src[i++]) >>> 0; }
          }
          r0 = (r0 + reverse(ALIGN, 4)) >>> 0;
        }
      }
    } else {
      if (!bit(G0 + state)) {
        if (!bit(LONG + (state << 4))) { state = state < 7 ? 9 : 11; out[pos] = out[pos - r0 - 1]; pos++; continue; }
      } else {
        let d;
        if (!bit(G1 + state)) d = r1;
        else { if (!bit(G2 + state)) d = r2; else { d = r3; r3 = r2; } r2 = r1; }
        r1 = r0; r0 = d;
      }
      n = len(REPLEN);
      state = state < 7 ? 8 : 11;
    }
    for (let end = Math.min(pos + n + 2, size); pos < end; pos++) out[pos] = out[pos - r0 - 1];
  }
  return out;
}
