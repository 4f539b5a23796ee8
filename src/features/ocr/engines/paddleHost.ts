// PaddleOCR host process (spawned by paddle.ts): one JSON request a line on stdin ({id, image}),
// one JSON answer a line on stdout. A process of its own rather than a worker thread: measured
// 1.5× faster (its JavaScript pre- and post-processing gets a whole heap), it runs under `nice`
// like the conversion tools, and its native memory is returned when it stops. It exits when
// stdin closes, so it never outlives the server.

export {};

interface Line { text: string; mean: number }
type Ocr = { detect(image: string): Promise<Line[]> };

const say = (msg: object) => process.stdout.write(`${JSON.stringify(msg)}\n`);

let ocr: Ocr;
try {
  const { default: Engine } = await import("@gutenye/ocr-node");
  const threads = Number(process.env.WENKU_OCR_THREADS) || 1;
  ocr = (await Engine.create({ onnxOptions: { intraOpNumThreads: threads, interOpNumThreads: 1 } })) as Ocr;
  say({ id: 0, ready: true });
} catch (err) {
  say({ id: 0, error: String((err as Error)?.message ?? err) });
  process.exit(1);
}

for await (const line of console) {
  if (!line.trim()) continue;
  let id = -1;
  try {
    const req = JSON.parse(line) as { id: number; image: string };
    id = req.id;
    const lines = await ocr.detect(req.image);
    say({ id, lines: lines.map((l) => ({ text: l.text, mean: l.mean })) });
  } catch (err) {
    say({ id, error: String((err as Error)?.message ?? err) });
  }
}
process.exit(0);
