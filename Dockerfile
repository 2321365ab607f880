# The service as one image: built as `npm start` builds it, and run as `npm start` runs it (the same Node
# flags, on the Node 24 build that `npm ci` installs from the lock, node_modules/.bin/node, the one the
# tests ran on), so the image and a laptop agree. Node 24 runs npm here.
FROM node:24-slim

WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data/app \
    FILE_UPLOAD_DIR=/data/uploads \
    npm_config_update_notifier=false

# Dependencies first, so a code change does not reinstall them. `--include=dev` keeps the exact set
# the lock file pins whatever NODE_ENV says (the tests and tools share it).
COPY package.json package-lock.json ./
RUN npm ci --include=dev --no-audit --no-fund && npm cache clean --force

COPY . .
RUN npm run build

# The data dir and uploads are volumes; created here so they belong to the unprivileged user.
RUN mkdir -p /data/app /data/uploads && chown -R node:node /data
USER node

EXPOSE 3000
VOLUME ["/data/app", "/data/uploads"]

HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"

# The service itself is PID 1, so `docker stop`'s SIGTERM reaches it and it drains and stops cleanly
# (docs/operations.md). Not `npm start`: npm dies on SIGTERM and leaves the service behind its `sh`,
# and the container's end then kills it without a drain. test/drift/dockerfile.test.ts keeps this line
# equal to package.json's start script.
CMD ["/app/node_modules/.bin/node", "--max-semi-space-size=4", "dist/src/app/main.js"]
