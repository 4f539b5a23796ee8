// Markdown (an AI answer) → a PNG card 640 px wide: satori lays the text out with Noto Sans SC,
// resvg rasterises the SVG. The height follows the content, capped at MAX_HEIGHT.
import { renderAsync } from "@resvg/resvg-js";
import satori from "satori";
import { type Budget, blocks, type El, el } from "./imageTree.ts";
import { lexMarkdown } from "./markdown.ts";

export const WIDTH = 640;
export const MAX_HEIGHT = 8000;
const PAD = 32;
const INNER = WIDTH - 2 * PAD;
/** More characters than this could never fit in MAX_HEIGHT at 16 px: the rest is not even laid out. */
const CHAR_BUDGET = 12_000;

type SatoriFont = { name: string; data: ArrayBuffer; weight: 400 | 700; style: "normal" };
let fonts: Promise<SatoriFont[]> | null = null;

/** The two Noto Sans SC weights, read once and kept in memory (satori caches their parsing per array). */
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
  // renderAsync rasterises on libuv's thread pool, off the event loop; under Bun the synchronous
  // Resvg#render also never released its native memory (≈6 MB per call), this does.
  return renderAsync(svg, { fitTo: { mode: "width", value: WIDTH }, font: { loadSystemFonts: false } });
}

export async function markdownToPng(markdown: string, opts: { title?: string; siteName: string }): Promise<Uint8Array> {
  const first = card(markdown, opts);
  // Too long to fit: laid out at the cap at once; the body clips and the "……" line says so.
  if (first.truncated) return new Uint8Array((await render(card(markdown, opts, MAX_HEIGHT).tree, MAX_HEIGHT)).asPng());
  let img = await render(first.tree);
  if (img.height > MAX_HEIGHT) img = await render(card(markdown, opts, MAX_HEIGHT).tree, MAX_HEIGHT);
  return new Uint8Array(img.asPng());
}
