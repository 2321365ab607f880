import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/core/database/embedded-postgres.js';
import { SERVED_BY_HEADER } from './mixed-drive.js';

/*
 * A real reverse proxy from the distribution (HAProxy or nginx) in front of several instances, for the
 * `scale-out` scenario: its configuration generated into a temporary directory, bound to 127.0.0.1 on a free
 * port, round robin per request over kept-alive connections, one worker, and a response header naming
 * the instance that answered (its host:port).
 */

export type ProxyKind = 'haproxy' | 'nginx';

export interface ProxyBinary {
  kind: ProxyKind;
  path: string;
}

export interface BenchProxy extends ProxyBinary {
  version: string;
  url: string;
  pid: number;
}

const INSTALL_HINT = 'install one with `apt-get install haproxy` (or `apt-get install nginx-light`), or pick one with BENCH_PROXY=haproxy|nginx';

/** The proxy to use: BENCH_PROXY's, else HAProxy, else nginx, looked up on PATH and in the sbin folders (Debian puts both there). */
export function findProxy(): ProxyBinary | { missing: string } {
  const wanted = process.env.BENCH_PROXY as ProxyKind | undefined;
  if (wanted && wanted !== 'haproxy' && wanted !== 'nginx') return { missing: `BENCH_PROXY must be haproxy or nginx, not ${wanted}` };
  const folders = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'].filter(Boolean);
  for (const kind of wanted ? [wanted] : (['haproxy', 'nginx'] as const)) {
    for (const folder of folders) {
      const path = join(folder, kind);
      try {
        accessSync(path, constants.X_OK);
        return { kind, path };
      } catch {
        // not in this folder
      }
    }
  }
  return { missing: `no ${wanted ?? 'haproxy or nginx'} found on PATH or in /usr/sbin: ${INSTALL_HINT}` };
}

function haproxyConfig(port: number, backends: string[]): string {
  return `global
  nbthread 1
  maxconn 4096
defaults
  mode http
  timeout connect 5s
  timeout client 120s
  timeout server 120s
  timeout http-keep-alive 120s
frontend bench
  bind 127.0.0.1:${port}
  default_backend service
backend service
  balance roundrobin
  http-response set-header ${SERVED_BY_HEADER} %[srv_name]
${backends.map((hostPort) => `  server ${hostPort} ${hostPort}`).join('\n')}
`;
}

function nginxConfig(port: number, backends: string[], dir: string): string {
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 120s;
  upstream service {
${backends.map((hostPort) => `    server ${hostPort};`).join('\n')}
    keepalive 64;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      add_header ${SERVED_BY_HEADER} $upstream_addr always;
    }
  }
}
`;
}

function versionOf(binary: ProxyBinary): string {
  const out = spawnSync(binary.path, ['-v'], { encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`.split('\n').find((line) => line.trim())?.trim() ?? binary.kind;
}

/**
 * Starts the proxy in the foreground over `backendUrls` (http://host:port) and resolves once it passes
 * `/healthz` through. Its stop is handed to `defer` as soon as it is spawned, so a Ctrl-C meanwhile stops it too.
 */
export async function startProxy(binary: ProxyBinary, backendUrls: string[], defer: (cleanup: () => Promise<void>) => void): Promise<BenchProxy> {
  const dir = await mkdtemp(join(tmpdir(), `lp-bench-${binary.kind}-`));
  const port = await freePort();
  const backends = backendUrls.map((url) => new URL(url).host);
  const config = join(dir, `${binary.kind}.conf`);
  await writeFile(config, binary.kind === 'haproxy' ? haproxyConfig(port, backends) : nginxConfig(port, backends, dir));
  const args = binary.kind === 'haproxy' ? ['-db', '-f', config] : ['-p', dir, '-c', config, '-e', join(dir, 'error.log')];
  const child = spawn(binary.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  defer(stop);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${binary.kind} exited before it was ready:\n${output.join('')}`);
    }
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      throw new Error(`${binary.kind} did not pass /healthz through within 10 s:\n${output.join('')}`);
    }
    await sleep(50);
  }
  return { ...binary, version: versionOf(binary), url, pid: child.pid! };
}
