# The service as one image, started with `npm start` as on a laptop (its prestart builds dist/ with esbuild).
# Node 24 runs npm here; `npm start` runs the service on the Node 24 build that `npm ci` installs from
# the lock (node_modules/.bin/node, the one the tests ran on), so the image and a laptop agree.
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

# The data dir and uploads are volumes; created here so they belong to the unprivileged user, as does
# /app itself (not its contents), where `npm start`'s prestart writes dist/.
RUN mkdir -p /data/app /data/uploads && chown -R node:node /data && chown node:node /app
USER node

EXPOSE 3000
VOLUME ["/data/app", "/data/uploads"]

HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"

# npm passes SIGTERM on to the server, which stops cleanly (operations.md).
CMD ["npm", "start"]
