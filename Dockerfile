# One container: the Bun server, its SQLite database under /app/data, and the Debian tools that
# convert documents (poppler, mupdf, LibreOffice without a GUI) with Chinese fonts for rendering.
FROM debian:bookworm-slim

ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      ca-certificates nodejs npm \
      poppler-utils mupdf-tools \
      libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui calibre \
      fonts-noto-cjk fonts-wqy-microhei \
 && npm i -g bun \
 && bun --version \
 && rm -rf /var/lib/apt/lists/* /root/.npm

WORKDIR /app
# Dependencies first, so a code change does not reinstall them; drizzle-kit, TypeScript and
# Playwright are development-only.
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production
COPY . .
# Fails the image build on a broken front end; `bun run start` rebuilds the same files at start.
RUN bun run build

ENV NODE_ENV=production HOST=0.0.0.0 PORT=8880 DATA_DIR=/app/data
EXPOSE 8880
VOLUME /app/data
HEALTHCHECK --interval=30s --timeout=5s CMD ["bun", "-e", "fetch('http://127.0.0.1:8880/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["bun", "run", "start"]
