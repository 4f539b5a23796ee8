// The PNG card's size, shared by image.ts (server side) and imageWorker.ts (the renderer) without
// pulling satori or resvg into the server's own thread.
export const WIDTH = 640;
export const MAX_HEIGHT = 8000;
