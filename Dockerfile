# syntax=docker/dockerfile:1

# Dependencies: compilers for better-sqlite3's native addon, then every package (the build and the simulator need
# the development ones).
FROM node:24-bookworm-slim AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# Build stage: the type check and the build (an image is only built from code that typechecks: `npm run build`
# itself only bundles), then only the packages the bot runs with.
FROM deps AS build
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/bundle.mjs ./scripts/
COPY src ./src
RUN npm run typecheck && npm run build && npm prune --omit=dev

# The Delivery Service simulator, for trying the bot without a GitLab (deploy/compose.yaml): `npm run sim`.
FROM deps AS sim
COPY tsconfig.json ./
COPY src ./src
ENV SIM_PORT=4000
USER node
EXPOSE 4000
CMD ["node", "--import", "tsx", "src/sim/main.ts"]

# Runtime stage (the default target): only what the bot needs, as the unprivileged `node` user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/data/bot.db
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json manifest.yml ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers. Whether it may take work is /readyz (the orchestrator's readiness probe).
HEALTHCHECK --interval=30s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# V8 lets the old generation grow to ~4× what survived the last full collection; after a burst of 200 commands in
# flight that left the process at ~250 MiB for a ~30 MiB live heap. Growing by half keeps it near ~165 MiB (README).
CMD ["node", "--heap-growing-percent=50", "dist/main.js"]
