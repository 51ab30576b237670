# syntax=docker/dockerfile:1
# Engram gateway. Multi-stage: the build stage installs every dependency (better-sqlite3 compiles
# a native module, so it has a toolchain) and compiles src/ into dist/ and the explorer into
# web/dist, then prunes node_modules to the production dependencies; the runtime image has no
# toolchain, no TypeScript and no sources, and runs as the unprivileged "node" user.
# Build: docker build -t engram .   Run: docker run -p 4000:4000 -v engram-data:/data engram
# The CLI in the image: docker run --rm -v engram-data:/data engram node bin/engram.js export -w NAME

FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
COPY web ./web
COPY schema ./schema
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=4000 \
    HOST=0.0.0.0 \
    ENGRAM_SQLITE_PATH=/data/engram.db
WORKDIR /app
# The app's files stay root-owned and read-only to the process; only /data is writable.
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/web/dist ./web/dist
COPY --chown=root:root package.json ./
COPY --chown=root:root bin ./bin
COPY --chown=root:root schema ./schema
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "dist/server.js"]
