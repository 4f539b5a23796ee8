// TextEncoder only writes UTF-8; a GBK encoder built from the platform's own GBK decoder.
let table: Map<string, number[]> | null = null;

function build() {
  const map = new Map<string, number[]>();
  const dec = new TextDecoder("gbk");
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const ch = dec.decode(new Uint8Array([lead, trail]));
      if (ch.length === 1 && ch !== "\ufffd" && !map.has(ch)) map.set(ch, [lead, trail]);
    }
  }
  return map;
}

/** Encodes text as GBK; throws on a character GBK cannot hold. */
export function encodeGbk(text: string): Uint8Array {
  table ??= build();
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else {
      const bytes = table.get(ch);
      if (!bytes) throw new Error(`GBK cannot encode ${JSON.stringify(ch)}`);
      out.push(...bytes);
    }
  }
  return new Uint8Array(out);
}
