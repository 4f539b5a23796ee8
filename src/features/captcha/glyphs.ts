// A tiny stroke font for captcha images: each glyph is polylines on a 10×16 grid (y grows down).
// Drawing glyphs as paths keeps the answer out of the SVG source, so reading the data URL is no shortcut.

export type Point = [number, number];
export type Glyph = Point[][];

/** Points along an elliptical arc; angles in degrees, 0 = right, 90 = down. */
function arc(cx: number, cy: number, rx: number, ry: number, from: number, to: number): Point[] {
  const steps = Math.max(6, Math.ceil(Math.abs(to - from) / 15));
  const pts: Point[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    pts.push([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  }
  return pts;
}

const rot180 = (g: Glyph): Glyph => g.map((line) => line.map(([x, y]) => [10 - x, 16 - y] as Point));

const SIX: Glyph = [[...arc(9.5, 11, 8.5, 10, -110, -180), ...arc(5, 11, 4, 4, 180, 540)]];
const P_BOWL: Point[] = [[1, 15], [1, 1], [5.5, 1], ...arc(5.5, 4.75, 3.5, 3.75, -90, 90), [1, 8.5]];

export const GLYPHS: Record<string, Glyph> = {
  "0": [arc(5, 8, 4.5, 7.5, 0, 360)],
  "1": [[[2, 4], [5.5, 1], [5.5, 15]], [[2.5, 15], [8.5, 15]]],
  "2": [[...arc(5, 5, 4, 4, -160, 20), [1, 15], [9, 15]]],
  "3": [arc(5, 4.5, 4, 3.5, -150, 90), arc(5, 11.5, 4, 3.5, -90, 150)],
  "4": [[[7, 15], [7, 1], [1, 11], [9.5, 11]]],
  "5": [[[8.5, 1], [2, 1], [1.5, 7.2], ...arc(5.2, 10.5, 4, 4.5, -135, 150)]],
  "6": SIX,
  "7": [[[1, 1], [9, 1], [4, 15]]],
  "8": [arc(5, 4.5, 3.5, 3.5, 0, 360), arc(5, 11.5, 4, 3.5, 0, 360)],
  "9": rot180(SIX),
  "+": [[[5, 4], [5, 12]], [[1, 8], [9, 8]]],
  "-": [[[1, 8], [9, 8]]],
  "×": [[[2, 5], [8, 11]], [[8, 5], [2, 11]]],
  "=": [[[1, 6], [9, 6]], [[1, 10], [9, 10]]],
  "?": [[...arc(5, 5, 4, 4, -160, 60), [5, 10.5], [5, 11.5]], [[5, 14.3], [5, 15]]],
  A: [[[0.5, 15], [5, 1], [9.5, 15]], [[2.5, 10], [7.5, 10]]],
  C: [arc(5.5, 8, 4.5, 7, -40, -320)],
  E: [[[9, 1], [1, 1], [1, 15], [9, 15]], [[1, 8], [7, 8]]],
  F: [[[9, 1], [1, 1], [1, 15]], [[1, 8], [7, 8]]],
  H: [[[1, 1], [1, 15]], [[9, 1], [9, 15]], [[1, 8], [9, 8]]],
  J: [[[9, 1], [9, 11], ...arc(5, 11, 4, 4, 0, 180)]],
  K: [[[1, 1], [1, 15]], [[9, 1], [1, 9.5]], [[3.5, 7], [9, 15]]],
  M: [[[1, 15], [1, 1], [5, 10], [9, 1], [9, 15]]],
  N: [[[1, 15], [1, 1], [9, 15], [9, 1]]],
  P: [P_BOWL],
  R: [P_BOWL, [[5, 8.5], [9, 15]]],
  T: [[[0.5, 1], [9.5, 1]], [[5, 1], [5, 15]]],
  U: [[[1, 1], [1, 11], ...arc(5, 11, 4, 4, 180, 0), [9, 1]]],
  V: [[[0.5, 1], [5, 15], [9.5, 1]]],
  W: [[[0, 1], [2.5, 15], [5, 5], [7.5, 15], [10, 1]]],
  X: [[[1, 1], [9, 15]], [[9, 1], [1, 15]]],
  Y: [[[1, 1], [5, 8], [9, 1]], [[5, 8], [5, 15]]],
};

/** Letters and digits for the "string" type, without look-alikes (0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B, 6/G). */
export const STRING_ALPHABET = "ACEFHJKMNPRTUVWXY34679";
