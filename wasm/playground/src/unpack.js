// The page carries the wasm module LZMA-compressed (xz --format=raw --lzma1, see build.mjs):
// about 330 KB where gzip gives 430 KB, so the whole page stays within its 400 KB budget when
// served gzipped. This is a decoder of that raw LZMA1 stream after Igor Pavlov's reference
// decoder (LzmaSpec.cpp, public domain): a range decoder, adaptive bit models, literal, match
// and repeated-match coding. The output size is known, so decoding stops there.
"use strict";

const PvUnpack = (() => {
  /** Decodes `input` (Uint8Array, raw LZMA1) into `size` bytes with the literal context bits
   * `lc`, literal position bits `lp` and position bits `pb` the encoder used. */
  function lzma(input, size, lc, lp, pb) {
    const out = new Uint8Array(size);
    // The range and the code are 32-bit unsigned: kept in a typed array, so that updating them
    // never allocates a boxed number.
    const rc = new Uint32Array(2); // [range, code]
    let inPos = 0;
    const byte = () => {
      if (inPos >= input.length) throw new Error("LZMA: the input ends early");
      return input[inPos++];
    };
    if (byte() !== 0) throw new Error("LZMA: bad stream start");
    rc[0] = 0xffffffff;
    for (let i = 0; i < 4; i++) rc[1] = rc[1] * 256 + byte();
    // One array of 11-bit probabilities, every model at its offset.
    const LEN = 2 + 16 * 8 * 2 + 256; // choice, choice2, low and mid per position state, high
    let top = 0;
    const at = (n) => (top += n) - n;
    const IS_MATCH = at(192), IS_REP = at(12), IS_REP_G0 = at(12), IS_REP_G1 = at(12), IS_REP_G2 = at(12), IS_REP0_LONG = at(192);
    const POS_SLOT = at(4 * 64), POS = at(115), ALIGN = at(16), MATCH_LEN = at(LEN), REP_LEN = at(LEN);
    const LITERAL = at(0x300 << (lc + lp));
    const p = new Uint16Array(top).fill(1024);

    const bit = (i) => {
      const v = p[i];
      const range = rc[0], code = rc[1];
      const bound = (range >>> 11) * v;
      if (code < bound) {
        p[i] = v + ((2048 - v) >>> 5);
        if (bound < 0x1000000) {
          rc[0] = bound * 256;
          rc[1] = code * 256 + byte();
        } else rc[0] = bound;
        return 0;
      }
      p[i] = v - (v >>> 5);
      if (range - bound < 0x1000000) {
        rc[0] = (range - bound) * 256;
        rc[1] = (code - bound) * 256 + byte();
      } else {
        rc[0] = range - bound;
        rc[1] = code - bound;
      }
      return 1;
    };
    const tree = (base, bits) => {
      let m = 1;
      for (let i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
      return m - (1 << bits);
    };
    const reverse = (base, bits) => {
      let m = 1, sym = 0;
      for (let i = 0; i < bits; i++) {
        const b = bit(base + m);
        m = (m << 1) | b;
        sym |= b << i;
      }
      return sym;
    };
    const direct = (bits) => {
      let res = 0;
      for (let i = 0; i < bits; i++) {
        const range = rc[0] >>> 1;
        let code = rc[1], b = 0;
        if (code >= range) {
          code -= range;
          b = 1;
        }
        res = res * 2 + b;
        if (range < 0x1000000) {
          rc[0] = range * 256;
          rc[1] = code * 256 + byte();
        } else {
          rc[0] = range;
          rc[1] = code;
        }
      }
      return res;
    };
    const length = (base, posState) => {
      if (!bit(base)) return tree(base + 2 + posState * 8, 3);
      if (!bit(base + 1)) return 8 + tree(base + 2 + 128 + posState * 8, 3);
      return 16 + tree(base + 2 + 256, 8);
    };
    const distance = (len) => {
      const slot = tree(POS_SLOT + Math.min(len, 3) * 64, 6);
      if (slot < 4) return slot;
      const bits = (slot >>> 1) - 1;
      const dist = bits < 30 ? (2 | (slot & 1)) << bits : (2 | (slot & 1)) * 0x40000000;
      if (slot < 14) return dist + reverse(POS + dist - slot, bits);
      return dist + direct(bits - 4) * 16 + reverse(ALIGN, 4);
    };

    const pbMask = (1 << pb) - 1, lpMask = (1 << lp) - 1;
    let pos = 0, state = 0, rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
    while (pos < size) {
      const posState = pos & pbMask;
      if (!bit(IS_MATCH + (state << 4) + posState)) {
        const prev = pos > 0 ? out[pos - 1] : 0;
        const base = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >>> (8 - lc)));
        let sym = 1;
        if (state >= 7) {
          let match = out[pos - rep0 - 1];
          while (sym < 0x100) {
            const mb = (match >>> 7) & 1;
            match <<= 1;
            const b = bit(base + ((1 + mb) << 8) + sym);
            sym = (sym << 1) | b;
            if (mb !== b) break;
          }
        }
        while (sym < 0x100) sym = (sym << 1) | bit(base + sym);
        out[pos++] = sym - 0x100;
        state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
        continue;
      }
      let len;
      if (bit(IS_REP + state)) {
        if (pos === 0) throw new Error("LZMA: corrupt stream");
        if (!bit(IS_REP_G0 + state)) {
          if (!bit(IS_REP0_LONG + (state << 4) + posState)) {
            state = state < 7 ? 9 : 11;
            out[pos] = out[pos - rep0 - 1];
            pos++;
            continue;
          }
        } else {
          let dist;
          if (!bit(IS_REP_G1 + state)) dist = rep1;
          else {
            if (!bit(IS_REP_G2 + state)) dist = rep2;
            else {
              dist = rep3;
              rep3 = rep2;
            }
            rep2 = rep1;
          }
          rep1 = rep0;
          rep0 = dist;
        }
        len = length(REP_LEN, posState);
        state = state < 7 ? 8 : 11;
      } else {
        rep3 = rep2;
        rep2 = rep1;
        rep1 = rep0;
        len = length(MATCH_LEN, posState);
        state = state < 7 ? 7 : 10;
        rep0 = distance(len);
        if (rep0 === 0xffffffff) break; // the end marker
        if (rep0 >= pos) throw new Error("LZMA: corrupt stream");
      }
      for (let n = Math.min(len + 2, size - pos), from = pos - rep0 - 1; n > 0; n--) out[pos++] = out[from++];
    }
    if (pos !== size) throw new Error(`LZMA: ${pos} of ${size} bytes`);
    return out;
  }

  /** Base64 to bytes. */
  function base64(s) {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  return { lzma, base64 };
})();
