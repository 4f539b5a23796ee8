// The PNG renderer, run in a Bun Worker owned by image.ts: markdown (an AI answer) → a card 640 px
// wide; satori lays the text out with Noto Sans SC, resvg rasterises the SVG. The height follows the
// content, capped at MAX_HEIGHT. Fonts, satori and resvg live only in this thread, so their memory
// (≈100 MB of fonts alone) goes away when image.ts terminates the idle worker.
//
// Protocol: in { id, markdown, opts }, out { id, png: ArrayBuffer (transferred) } or { id, error }.
import { renderAsync } from "@resvg/resvg-js";
import satori from "satori";
import { type Budget, blocks, type El, el } from "./imageTree.ts";
import { MAX_HEIGHT, WIDTH } from "./imageSize.ts";
import { lexMarkdown } from "./markdown.ts";

const PAD = 32;
const INNER = WIDTH - 2 * PAD;
/** More characters than this could never fit in MAX_HEIGHT at 16 px: the rest is not even laid out. */
const CHAR_BUDGET = 12_000;

export interface ImageJob {
  id: number;
  markdown: string;
  opts: { title?: string; siteName: string };
}
export type ImageReply = { id: number; png: ArrayBuffer } | { id: number; error: string };

type SatoriFont = { name: string; data: ArrayBuffer; weight: 400 | 700; style: "normal" };
let fonts: Promise<SatoriFont[]> | null = null;

/** The two Noto Sans SC weights, read once per worker (satori caches their parsing per array). */
function loadFonts(): Promise<SatoriFont[]> {
  fonts ??= Promise.all(
    ([[400, "400Regular/NotoSansSC_400Regular.ttf"], [700, "700Bold/NotoSansSC_700Bold.ttf"]] as const).map(async ([weight, file]) => ({
      name: "Noto Sans SC",
      data: await Bun.file(Bun.resolveSync(`@expo-google-fonts/noto-sans-sc/${file}`, import.meta.dir)).arrayBuffer(),
      weight,
      style: "normal" as const,
    })),
  ).catch((err) => {
    fonts = null;
    throw err;
  });
  return fonts;
}

function card(markdown: string, opts: { title?: string; siteName: string }, height?: number): { tree: El; truncated: boolean } {
  const budget: Budget = { left: CHAR_BUDGET, truncated: false };
  // Footnote definitions go last, under the text, wherever the markdown put them.
  const tokens = lexMarkdown(markdown);
  const body = blocks([...tokens.filter((t) => t.type !== "footnoteDef"), ...tokens.filter((t) => t.type === "footnoteDef")], INNER, budget);
  const cut = budget.truncated || height !== undefined;
  const date = new Date().toLocaleDateString("zh-CN", { timeZone: "Asia/Shanghai" });
  const title = opts.title?.trim();
  const tree = el(
    "div",
    // satori sizes are content-box: the card is INNER wide plus its padding, exactly WIDTH in all.
    { display: "flex", flexDirection: "column", width: INNER, ...(height ? { height: height - 2 * PAD } : {}), padding: PAD, backgroundColor: "#ffffff", color: "#111827", fontFamily: "Noto Sans SC", fontSize: 16, lineHeight: 1.65 },
    [
      el("div", { display: "flex", justifyContent: "space-between", width: INNER, paddingBottom: 10, marginBottom: 16, borderBottom: "2px solid #2563eb", color: "#2563eb", fontSize: 14, fontWeight: 700 }, [
        el("div", { display: "flex" }, opts.siteName || "文库"),
        el("div", { display: "flex", color: "#9ca3af", fontWeight: 400 }, "AI 回答"),
      ]),
      ...(title ? [el("div", { display: "block", width: INNER, fontSize: 24, fontWeight: 700, lineHeight: 1.4, marginBottom: 14 }, title)] : []),
      el("div", { display: "flex", flexDirection: "column", width: INNER, flexShrink: 1, flexGrow: 1, minHeight: 0, overflow: "hidden" }, body),
      ...(cut ? [el("div", { display: "flex", width: INNER, justifyContent: "center", color: "#6b7280", paddingTop: 8 }, "……（内容过长，其余部分未显示）")] : []),
      el("div", { display: "flex", justifyContent: "space-between", width: INNER, flexShrink: 0, marginTop: 16, paddingTop: 10, borderTop: "1px solid #e5e7eb", color: "#9ca3af", fontSize: 12 }, [
        el("div", { display: "flex" }, `来自 ${opts.siteName || "文库"}`),
        el("div", { display: "flex" }, date),
      ]),
    ],
  );
  return { tree, truncated: budget.truncated };
}

async function render(tree: El, height?: number) {
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], { width: WIDTH, ...(height ? { height } : {}), fonts: await loadFonts() });
  // renderAsync rasterises on the thread pool; under Bun the synchronous Resvg#render also never
  // released its native memory (≈6 MB per call), this does.
  return renderAsync(svg, { fitTo: { mode: "width", value: WIDTH }, font: { loadSystemFonts: false } });
}

/** The PNG bytes, in an ArrayBuffer of their own (so it can be transferred, not copied, back). */
async function renderPng(markdown: string, opts: { title?: string; siteName: string }): Promise<ArrayBuffer> {
  const first = card(markdown, opts);
  const capped = () => render(card(markdown, opts, MAX_HEIGHT).tree, MAX_HEIGHT);
  // Too long to fit: laid out at the cap at once; the body clips and the "……" line says so.
  let img = first.truncated ? await capped() : await render(first.tree);
  if (!first.truncated && img.height > MAX_HEIGHT) img = await capped();
  const png = img.asPng();
  const out = new Uint8Array(png.byteLength);
  out.set(png);
  return out.buffer;
}

declare const self: Worker;

self.onmessage = async (e: MessageEvent<ImageJob>) => {
  const { id, markdown, opts } = e.data;
  try {
    const png = await renderPng(markdown, opts);
    postMessage({ id, png } satisfies ImageReply, [png]);
  } catch (err) {
    postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies ImageReply);
  }
};
