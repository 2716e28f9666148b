#!/usr/bin/env python3
"""Maven Central and Debian's archive, served from the host to image builds (scripts/test-compose).

The daemon of scripts/test-compose resolves no outside name (its "dns" is this machine's own
address), so a RUN step cannot reach a package registry by itself. This serves exactly three
upstream repositories, read-only, on the Docker bridge's address of the host:

  /maven2/...           https://repo.maven.apache.org/maven2/...
  /debian/...           http://deb.debian.org/debian/...
  /debian-security/...  http://deb.debian.org/debian-security/...

Anything else is refused (404): it is no general proxy. Artifacts and .deb files are cached under
--cache (immutable once published); index and metadata files (Maven's maven-metadata.xml, apt's
dists/) are always fetched again. apt checks what it gets against the archive's signed Release
files, Maven against the artifacts' checksums, as they would straight from the registry.

  repository-proxy.py --bind 172.17.0.1 --port 18081 --cache DIR
"""
import argparse
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAMS = {
    "maven2": "https://repo.maven.apache.org/maven2/",
    "debian": "http://deb.debian.org/debian/",
    "debian-security": "http://deb.debian.org/debian-security/",
}


def cacheable(rest):
    name = rest.rsplit("/", 1)[-1]
    if name.startswith("maven-metadata") or rest.startswith("dists/"):
        return False
    return True


class Handler(BaseHTTPRequestHandler):
    cache_dir = None
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt, *args):
        pass  # one line per request would drown the build's output; errors are logged below

    def do_HEAD(self):
        self.serve(send_body=False)

    def do_GET(self):
        self.serve(send_body=True)

    def serve(self, send_body):
        path = self.path.split("?", 1)[0]
        parts = path.lstrip("/").split("/", 1)
        if len(parts) != 2 or parts[0] not in UPSTREAMS or ".." in parts[1].split("/"):
            self.send_error(404, "not served here")
            return
        repo, rest = parts
        cached = os.path.join(self.cache_dir, repo, rest)
        if cacheable(rest) and os.path.isfile(cached):
            self.send_file(cached, send_body)
            return
        url = UPSTREAMS[repo] + rest
        try:
            request = urllib.request.Request(url, method="GET")
            with urllib.request.urlopen(request, timeout=60) as response:
                if not cacheable(rest):
                    body = response.read()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    if send_body:
                        self.wfile.write(body)
                    return
                os.makedirs(os.path.dirname(cached), exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=os.path.dirname(cached), prefix=".part-")
                with os.fdopen(fd, "wb") as out:
                    shutil.copyfileobj(response, out, 1 << 20)
                os.replace(tmp, cached)
        except urllib.error.HTTPError as e:
            if e.code != 404:
                sys.stderr.write(f"repository-proxy: {url}: HTTP {e.code}\n")
            self.send_error(e.code)
            return
        except Exception as e:  # network trouble: the build's client reports and retries
            sys.stderr.write(f"repository-proxy: {url}: {e}\n")
            self.send_error(502, str(e))
            return
        self.send_file(cached, send_body)

    def send_file(self, file, send_body):
        self.send_response(200)
        self.send_header("Content-Length", str(os.path.getsize(file)))
        self.end_headers()
        if send_body:
            with open(file, "rb") as f:
                shutil.copyfileobj(f, self.wfile, 1 << 20)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bind", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cache", required=True)
    args = parser.parse_args()
    Handler.cache_dir = args.cache
    os.makedirs(args.cache, exist_ok=True)
    server = ThreadingHTTPServer((args.bind, args.port), Handler)
    server.daemon_threads = True
    print(f"repository-proxy: serving on http://{args.bind}:{args.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
