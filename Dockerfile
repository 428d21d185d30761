# One image for both production roles; the compose file picks the entry point.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The npm workspace (the typed client) must be present for `npm ci` to accept the lock file.
COPY packages/client/package.json packages/client/package.json
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps apps
COPY libs libs
COPY projections projections
COPY bench bench
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# Every process of a deployment mounts the same volume here (docs/adr/0033, "who owns which folder").
ENV DATA_DIR=/var/lib/location-api
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
# tsc does not copy non-TypeScript files: the /console and /docs pages read their assets and the guides from here.
COPY libs/console/src/assets libs/console/src/assets
COPY docs/guides docs/guides
# The starter pack the api imports on first start when no dataset of a kind is live (STARTER_DATA=false turns it off):
# owned by root, readable by everyone, so the service (user node) reads it and cannot change it.
COPY starter starter
RUN chmod -R a+rX /app/starter \
 && mkdir -p /var/lib/location-api \
 && chown node:node /var/lib/location-api \
 && chmod 0750 /var/lib/location-api
# A named volume mounted here starts as a copy of this folder: owned by node, so DATA_DIR is writable.
VOLUME /var/lib/location-api
USER node
EXPOSE 8080
# The api's readiness; the worker's compose service asks its HEALTH_PORT instead.
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=32", "dist/apps/api/src/main.js"]
