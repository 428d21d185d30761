# One image for both production roles; the compose file picks the entry point.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps apps
COPY libs libs
COPY projections projections
COPY bench bench
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
# The starter pack the api imports on first start when no dataset of a kind is live (STARTER_DATA=false turns it off).
COPY starter starter
USER node
CMD ["node", "dist/apps/api/src/main.js"]
